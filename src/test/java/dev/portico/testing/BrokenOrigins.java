package dev.portico.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Loopback endpoints that fail in the ways upstreams fail, for error-status tests. */
public final class BrokenOrigins {

    private BrokenOrigins() {
    }

    /** A loopback port nothing listens on: connecting is refused. */
    public static int refusingPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * A listener that never accepts, with its accept queue already full: the kernel drops further SYNs, so a new
     * connection attempt hangs until the client's connect timeout.
     */
    public static final class Unanswering implements AutoCloseable {
        private final ServerSocket server;
        private final List<Socket> fillers = new ArrayList<>();

        public Unanswering() throws IOException {
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            for (int i = 0; i < 4; i++) {
                Socket filler = new Socket();
                try {
                    filler.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 200);
                    fillers.add(filler);
                } catch (IOException queueFull) {
                    filler.close();
                    break;
                }
            }
        }

        public int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            for (Socket filler : fillers) {
                filler.close();
            }
            server.close();
        }
    }

    /** Accepts connections and answers every request with bytes that are not HTTP, then closes. */
    public static final class Garbage implements AutoCloseable {
        private final ServerSocket server;

        public Garbage() throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            Thread thread = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket socket = server.accept()) {
                        socket.getInputStream().read(new byte[4096]);
                        OutputStream out = socket.getOutputStream();
                        out.write("SSH-2.0-OpenSSH_9.2 not http at all\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    } catch (IOException e) {
                        // closed
                    }
                }
            }, "garbage-origin");
            thread.setDaemon(true);
            thread.start();
        }

        public int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
