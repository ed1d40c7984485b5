package dev.portico.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** Sends bytes no well-behaved client would send and returns what came back, for malformed-request tests. */
public final class RawHttp {

    private RawHttp() {
    }

    /** Writes {@code request} as-is and reads until the server closes or 5 s pass. */
    public static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return readUntilQuiet(socket.getInputStream());
        }
    }

    /** Reads until the server closes, or until its socket's read timeout when it keeps the connection open. */
    private static String readUntilQuiet(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException timeout) {
            // the server kept the connection open; what arrived is the answer
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** As {@link #exchange}, from the loopback address {@code local} (such as 127.0.0.7): a client of its own. */
    public static String exchangeFrom(String local, int port, String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(local, 0));
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return readUntilQuiet(socket.getInputStream());
        }
    }

    /**
     * Writes a GET on {@code socket}, whose answer the caller reads later ({@link #readResponse}), or never: how tests
     * hold requests open side by side.
     */
    public static Socket sendGet(Socket socket, String host, String path) throws IOException {
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** Reads until the server closes; fails if it is still open after the socket's read timeout. */
    public static String readToClose(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection stayed open; read: " + out.toString(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** The status code of the first response in {@code raw}. */
    public static int status(String raw) {
        if (!raw.startsWith("HTTP/1.")) {
            throw new AssertionError("not an HTTP response: " + raw);
        }
        return Integer.parseInt(raw.substring(9, 12));
    }

    /**
     * Reads one byte at a time until what was read ends with {@code end} (such as the blank line after a head),
     * or the stream ends; returns what was read, so a response's body stays in the stream.
     */
    public static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        while (!seen.toString(StandardCharsets.ISO_8859_1).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            seen.write(b);
        }
        return seen.toString(StandardCharsets.ISO_8859_1);
    }

    /** One response read off a connection: its head (status line and fields) and its body. */
    public record Response(String head, String body) {
        public int status() {
            return RawHttp.status(head);
        }

        /** The first value of field {@code name}, or null. */
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    /**
     * Reads one response with a {@code Content-Length} or chunked body (or none, for 1xx, 204 and 304), leaving what
     * follows in the stream; fails when the stream ends first, as a connection reset mid-body makes it.
     */
    public static Response readResponse(InputStream in) throws IOException {
        String head = readUntil(in, "\r\n\r\n");
        if (!head.endsWith("\r\n\r\n")) {
            throw new IOException("the connection ended inside a response head: " + head);
        }
        int status = status(head);
        String lower = head.toLowerCase(Locale.ROOT);
        if (status < 200 || status == 204 || status == 304) {
            return new Response(head, "");
        }
        if (lower.contains("\r\ntransfer-encoding: chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String size = readUntil(in, "\r\n");
                if (!size.endsWith("\r\n")) {
                    throw new IOException("the connection ended inside a chunked body");
                }
                int length = Integer.parseInt(size.trim(), 16);
                if (length == 0) {
                    readUntil(in, "\r\n");
                    return new Response(head, body.toString(StandardCharsets.ISO_8859_1));
                }
                body.write(readExactly(in, length + 2), 0, length);
            }
        }
        String declared = new Response(head, "").header("Content-Length");
        int length = declared == null ? 0 : Integer.parseInt(declared);
        return new Response(head, new String(readExactly(in, length), StandardCharsets.ISO_8859_1));
    }

    private static byte[] readExactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length) {
            throw new IOException("the connection ended after " + bytes.length + " of " + length + " body bytes");
        }
        return bytes;
    }
}
