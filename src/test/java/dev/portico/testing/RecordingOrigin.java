package dev.portico.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An origin on a plain loopback socket that records every request exactly as the bytes arrived (head and body), for
 * tests that must prove what did, or did not, reach an origin: no HTTP library in between to decode or repair them.
 * Reads {@code Content-Length} and chunked bodies, answers each request {@code 200} with body {@code ok}, and keeps
 * the connection open for the next one.
 */
public final class RecordingOrigin implements AutoCloseable {

    /** One request as received: its raw head (through the blank line) and its raw body. */
    public record Received(byte[] head, byte[] body) {

        /** The request line's bytes, without CRLF. */
        public byte[] requestLine() {
            String text = new String(head, StandardCharsets.ISO_8859_1);
            return text.substring(0, text.indexOf("\r\n")).getBytes(StandardCharsets.ISO_8859_1);
        }

        public String headText() {
            return new String(head, StandardCharsets.ISO_8859_1);
        }
    }

    private final ServerSocket server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private RecordingOrigin(ServerSocket server) {
        this.server = server;
    }

    public static RecordingOrigin start() throws IOException {
        RecordingOrigin origin = new RecordingOrigin(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        Thread acceptor = new Thread(origin::accept, "recording-origin");
        acceptor.setDaemon(true);
        acceptor.start();
        return origin;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    public List<Received> received() {
        return new ArrayList<>(received);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                Thread reader = new Thread(() -> serve(socket), "recording-origin-connection");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] head = readHead(in);
                if (head == null) {
                    return;
                }
                byte[] body = readBody(in, new String(head, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
                received.add(new Received(head, body));
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        } catch (IOException e) {
            // the proxy closed or reset the connection
        }
    }

    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return head.toByteArray();
    }

    private static byte[] readBody(InputStream in, String head) throws IOException {
        if (head.contains("\r\ntransfer-encoding: chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String sizeLine = RawHttp.readUntil(in, "\r\n");
                body.write(sizeLine.getBytes(StandardCharsets.ISO_8859_1));
                int size = Integer.parseInt(sizeLine.trim().split(";")[0], 16);
                if (size == 0) {
                    body.write(RawHttp.readUntil(in, "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    return body.toByteArray();
                }
                body.write(in.readNBytes(size + 2));
            }
        }
        int at = head.indexOf("\r\ncontent-length:");
        if (at < 0) {
            return new byte[0];
        }
        int end = head.indexOf("\r\n", at + 2);
        return in.readNBytes(Integer.parseInt(head.substring(at + 17, end).trim()));
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
