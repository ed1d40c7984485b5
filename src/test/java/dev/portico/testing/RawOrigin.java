package dev.portico.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An origin on a loopback socket that writes whatever bytes its script says, for upstreams that break HTTP's rules
 * (bodies longer than their Content-Length, interim responses, stalls mid-body). Each connection is served on its
 * own thread: every request head (and its Content-Length body) is read, then the script answers it. The origin
 * counts the connections it accepted and those the proxy closed.
 */
public final class RawOrigin implements AutoCloseable {

    /** How the origin answers one request. */
    @FunctionalInterface
    public interface Script {
        void answer(Request request) throws IOException, InterruptedException;
    }

    /**
     * One request as the origin read it.
     *
     * @param connection 1 for the first connection the origin accepted, 2 for the second...
     * @param number 1 for the first request on its connection, 2 for the second...
     */
    public record Request(int connection, int number, String head, Socket socket, OutputStream out) {

        /** The path of the request line (with its query). */
        public String path() {
            String line = head.substring(0, head.indexOf("\r\n"));
            return line.split(" ")[1];
        }

        /** Writes {@code bytes} (ISO-8859-1) and flushes them. */
        public void write(String bytes) throws IOException {
            out.write(bytes.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /**
         * Waits, reading and dropping whatever comes, until the proxy closes the connection or {@code millis} pass;
         * returns whether it closed. For scripts that stall and let the proxy give up.
         */
        public boolean awaitClosedByPeer(int millis) throws IOException {
            socket.setSoTimeout(millis);
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            try {
                while (in.read(buffer) >= 0) {
                    // dropped
                }
                return true;
            } catch (SocketTimeoutException stillOpen) {
                return false;
            } catch (IOException reset) {
                return true;
            }
        }
    }

    private final ServerSocket server;
    private final Script script;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger closedByPeer = new AtomicInteger();
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private RawOrigin(ServerSocket server, Script script) {
        this.server = server;
        this.script = script;
    }

    public static RawOrigin start(Script script) throws IOException {
        RawOrigin origin = new RawOrigin(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), script);
        Thread acceptor = new Thread(origin::accept, "raw-origin-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return origin;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** Connections the proxy closed (or reset) while the origin was waiting for a request or reading one. */
    public int closedByPeer() {
        return closedByPeer.get();
    }

    /** Every request head read so far, in order. */
    public List<String> heads() {
        return heads;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                int connection = connections.incrementAndGet();
                Thread serving = new Thread(() -> serve(socket, connection), "raw-origin-" + connection);
                serving.setDaemon(true);
                serving.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket, int connection) {
        try {
            socket.setSoTimeout(30_000);
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int number = 1; ; number++) {
                String head = readHead(in);
                if (head == null) {
                    closedByPeer.incrementAndGet();
                    return;
                }
                heads.add(head);
                skipBody(in, head);
                script.answer(new Request(connection, number, head, socket, out));
                if (socket.isClosed()) {
                    // the script closed it
                    return;
                }
            }
        } catch (IOException e) {
            // Unless the script or close() closed the socket, the proxy closed or reset the connection.
            if (!socket.isClosed() && !server.isClosed()) {
                closedByPeer.incrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    /** The head up to and including its blank line, or null when the connection ends first. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        byte[] end = {'\r', '\n', '\r', '\n'};
        int matched = 0;
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads a Content-Length body, so the next head starts where it should (chunked bodies are not sent here). */
    private static void skipBody(InputStream in, String head) throws IOException {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                int length = Integer.parseInt(line.substring(15).trim());
                if (in.readNBytes(length).length < length) {
                    throw new IOException("the body ended early");
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            socket.close();
        }
    }
}
