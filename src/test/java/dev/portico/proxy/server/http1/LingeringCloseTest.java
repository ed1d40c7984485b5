package dev.portico.proxy.server.http1;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.UploadOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reply that leaves part of the request unread closes the connection the way RFC 9112 section 9.6 asks (nginx's
 * {@code lingering_close}): the reply, then Portico's FIN, then whatever the client still sends is read and dropped
 * until the client closes its side. Closing at once would make the kernel answer the client's next bytes with a
 * reset, which on many stacks destroys the reply before the client has read it; here the client proves it can keep
 * writing after it has read the whole reply and its end.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LingeringCloseTest {

    @Inject
    DataPlaneServer dataPlane;

    private UploadOrigin origin;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        if (origin != null) {
            origin.close();
        }
    }

    @Test
    void aClientStillSendingItsBodyReadsThe413AndMayFinishSendingWithoutAReset() throws Exception {
        origin = UploadOrigin.start();
        Api.create(Api.vhost("linger", "linger.test", origin.url()).put("maxRequestBody", "1KiB"));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /upload HTTP/1.1\r\nHost: linger.test\r\nContent-Length: 8388608\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();

            String reply = readUntilEnd(socket.getInputStream());
            assertEquals(413, RawHttp.status(reply), reply);
            assertTrue(reply.contains("\"reason\":\"request_body_too_large\""), reply);

            // Portico has closed its side; the client goes on sending the body it declared. Without lingering, these
            // writes run into a reset ("Connection reset" / "Broken pipe") as soon as the first of them arrives.
            byte[] piece = new byte[64 * 1024];
            for (int i = 0; i < 64; i++) {
                out.write(piece);
            }
            out.flush();
            socket.shutdownOutput();
        }
        assertEquals(0, origin.requests(), "nothing reached the origin");
    }

    @Test
    void aBrokenChunkedBodyGetsIts400AndTheRestIsDroppedUntilTheClientStops() throws Exception {
        origin = UploadOrigin.start();
        Api.create(Api.vhost("linger-chunked", "linger-chunked.test", origin.url()));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /upload HTTP/1.1\r\nHost: linger-chunked.test\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "zz\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();

            String reply = readUntilEnd(socket.getInputStream());
            assertEquals(400, RawHttp.status(reply), reply);

            byte[] piece = new byte[64 * 1024];
            for (int i = 0; i < 32; i++) {
                out.write(piece);
            }
            out.flush();
            socket.shutdownOutput();
        }
    }

    /** Reads until Portico's FIN: a reset instead fails the test. */
    private static String readUntilEnd(InputStream in) throws IOException {
        StringBuilder seen = new StringBuilder();
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            seen.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
        }
        return seen.toString();
    }
}
