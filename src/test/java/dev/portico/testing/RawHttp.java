package dev.portico.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

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
            InputStream in = socket.getInputStream();
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
}
