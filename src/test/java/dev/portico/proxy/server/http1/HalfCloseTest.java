package dev.portico.proxy.server.http1;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.portico.proxy.server.http1.Refusals.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client may shut down its sending side once its requests are sent (a half-close, RFC 9112 section 9.6; what
 * {@code nc -N} or a script piping a request does): every complete request is still answered, then the connection
 * closes.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class HalfCloseTest extends DataPlaneTestSupport {

    private Path root;

    @BeforeEach
    void site() throws IOException {
        root = Files.createTempDirectory("portico-half-close");
        Files.writeString(root.resolve("index.html"), "<h1>static</h1>");
    }

    @AfterEach
    void removeSite() throws IOException {
        Files.deleteIfExists(root.resolve("index.html"));
        Files.deleteIfExists(root);
    }

    /** Sends {@code request}, shuts down the sending side, and reads until the server closes (5 s at most). */
    private String sendThenHalfClose(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the connection stayed open; read so far: "
                        + out.toString(StandardCharsets.ISO_8859_1));
            }
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** The final responses in {@code raw}, each as head and body, interim (1xx) responses left out. */
    private static List<String> finalResponses(String raw) {
        List<String> responses = new ArrayList<>();
        String rest = raw;
        while (!rest.isEmpty()) {
            int headEnd = rest.indexOf("\r\n\r\n") + 4;
            String head = rest.substring(0, headEnd);
            if (head.startsWith("HTTP/1.1 1")) {
                rest = rest.substring(headEnd);
                continue;
            }
            int at = head.toLowerCase().indexOf("\r\ncontent-length:");
            int length = Integer.parseInt(head.substring(at + 17, head.indexOf("\r\n", at + 2)).trim());
            responses.add(rest.substring(0, headEnd + length));
            rest = rest.substring(headEnd + length);
        }
        return responses;
    }

    @Test
    void aForwardedRequestIsAnsweredAfterTheClientHalfCloses() throws IOException {
        vhost("half-forward", "half-forward.test", origin("a"));
        List<String> responses = finalResponses(sendThenHalfClose(
                "GET /echo HTTP/1.1\r\nHost: half-forward.test\r\n\r\n"));
        assertEquals(1, responses.size(), responses.toString());
        assertEquals(200, RawHttp.status(responses.get(0)));
        assertTrue(responses.get(0).contains("\"origin\":\"a\""), responses.get(0));
    }

    @Test
    void aStaticFileIsServedAfterTheClientHalfCloses() throws IOException {
        vhost(new JsonObject().put("name", "half-static").put("hostnames", new JsonArray().add("half-static.test"))
                .put("static", new JsonObject().put("root", root.toString())));
        List<String> responses = finalResponses(sendThenHalfClose(
                "GET /index.html HTTP/1.1\r\nHost: half-static.test\r\n\r\n"));
        assertEquals(1, responses.size(), responses.toString());
        assertEquals(200, RawHttp.status(responses.get(0)));
        assertTrue(responses.get(0).endsWith("<h1>static</h1>"), responses.get(0));
    }

    @Test
    void everyPipelinedRequestIsAnsweredBeforeTheClose() throws IOException {
        vhost("half-pipeline", "half-pipeline.test", origin("a"));
        List<String> responses = finalResponses(sendThenHalfClose(
                "GET /echo?n=1 HTTP/1.1\r\nHost: half-pipeline.test\r\n\r\n"
                        + "POST /echo?n=2 HTTP/1.1\r\nHost: half-pipeline.test\r\nContent-Length: 5\r\n\r\nhello"
                        + "GET /slow/200 HTTP/1.1\r\nHost: half-pipeline.test\r\n\r\n"));
        assertEquals(3, responses.size(), responses.toString());
        for (String response : responses) {
            assertEquals(200, RawHttp.status(response), response);
        }
        assertTrue(responses.get(1).contains("\"uri\":\"/echo?n=2\""), responses.get(1));
    }

    /**
     * A client that closes its socket entirely looks like one that half-closed until something is written to it: the
     * interim 100 Portico then sends draws a reset, and the request is cancelled as for any client that leaves,
     * long before the origin would have answered.
     */
    @Test
    void aClientThatClosesEntirelyWhileWaitingIsStillCancelled() throws Exception {
        OriginServer origin = origin("a");
        vhost("half-gone", "half-gone.test", origin);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port())) {
            socket.getOutputStream().write("GET /slow/8000 HTTP/1.1\r\nHost: half-gone.test\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.requestCount()));
        }
        long closed = System.nanoTime();
        Eventually.within(Duration.ofSeconds(8), () -> assertEquals(0, dataPlane.inFlight()));
        long cancelledAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closed);
        assertTrue(cancelledAfterMs < 5000, "cancelled after " + cancelledAfterMs + " ms");
    }

    @Test
    void aHeadCutShortByTheHalfCloseIsRefused() throws IOException {
        assertRefused(sendThenHalfClose("GET /echo HTTP/1.1\r\nHost: half.test\r\nX-Unfinished: "), 400,
                "bad_request");
    }

    @Test
    void aConnectionHalfClosedBeforeAnyRequestClosesWithoutAnswer() throws IOException {
        assertEquals("", sendThenHalfClose(""));
    }
}
