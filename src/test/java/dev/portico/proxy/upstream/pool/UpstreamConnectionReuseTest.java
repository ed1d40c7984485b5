package dev.portico.proxy.upstream.pool;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pooled upstream connection is reused only when its last response ended exactly where the bytes did: any byte
 * beyond a complete response (more body than {@code Content-Length}, a forged second response) or a response cut
 * short means the connection is closed, so the next request cannot read someone else's bytes as its answer.
 * Both requests of each test go over one client connection, so they run on one event loop and share its pool.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamConnectionReuseTest extends DataPlaneTestSupport {

    private static final String OWN_ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond";

    private static String get(String host, String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    @Test
    void bytesBeyondContentLengthCloseTheUpstreamConnection() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> request.write(request.path().equals("/first")
                ? "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloEXTRA" : OWN_ANSWER))) {
            vhost(Api.vhost("surplus", "surplus.test", origin.url()));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                send(socket, get("surplus.test", "/first"));
                RawHttp.Response first = RawHttp.readResponse(in);
                assertEquals(200, first.status());
                assertEquals("hello", first.body());
                send(socket, get("surplus.test", "/second"));
                RawHttp.Response second = RawHttp.readResponse(in);
                assertEquals(200, second.status(), second.head());
                assertEquals("second", second.body());
            }
            assertEquals(2, origin.connections(), "the second request must go over a new upstream connection");
        }
    }

    @Test
    void aForgedResponseAfterTheBodyNeverAnswersTheNextRequest() throws Exception {
        String forged = "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged";
        try (RawOrigin origin = RawOrigin.start(request -> request.write(request.path().equals("/first")
                ? "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" + forged : OWN_ANSWER))) {
            vhost(Api.vhost("forged", "forged.test", origin.url()));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                send(socket, get("forged.test", "/first"));
                assertEquals("hello", RawHttp.readResponse(in).body());
                send(socket, get("forged.test", "/second"));
                assertEquals("second", RawHttp.readResponse(in).body());
            }
            assertEquals(2, origin.connections());
        }
    }

    @Test
    void bytesArrivingOnAnIdleConnectionCloseIt() throws Exception {
        CountDownLatch clientHasTheResponse = new CountDownLatch(1);
        try (RawOrigin origin = RawOrigin.start(request -> {
            if (request.path().equals("/first")) {
                // The surplus comes in its own segment, once the client has the whole response: Portico has taken
                // the response as complete and the connection is idle in its pool.
                request.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
                assertTrue(clientHasTheResponse.await(10, TimeUnit.SECONDS), "the client never got the response");
                request.write("EXTRA");
            } else {
                request.write(OWN_ANSWER);
            }
        })) {
            vhost(Api.vhost("late-surplus", "late-surplus.test", origin.url()));
            try (Socket socket = connect()) {
                InputStream in = socket.getInputStream();
                send(socket, get("late-surplus.test", "/first"));
                assertEquals("hello", RawHttp.readResponse(in).body());
                clientHasTheResponse.countDown();
                Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer(),
                        "Portico must close a connection that sends bytes no request asked for"));
                send(socket, get("late-surplus.test", "/second"));
                assertEquals("second", RawHttp.readResponse(in).body());
            }
            assertEquals(2, origin.connections());
        }
    }

    @Test
    void aResponseCutShortResetsTheClientAndIsNotReused() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> {
            if (request.path().equals("/first")) {
                request.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello");
                request.socket().close();
            } else {
                request.write(OWN_ANSWER);
            }
        })) {
            vhost(Api.vhost("short", "short.test", origin.url()));
            try (Socket socket = connect()) {
                send(socket, get("short.test", "/first"));
                IOException cut = assertThrows(IOException.class, () -> RawHttp.readResponse(socket.getInputStream()));
                assertEquals(true, cut.getMessage() == null || !cut.getMessage().contains("head"), cut.getMessage());
            }
            try (Socket socket = connect()) {
                send(socket, get("short.test", "/second"));
                assertEquals("second", RawHttp.readResponse(socket.getInputStream()).body());
            }
            assertEquals(2, origin.connections());
        }
    }

    /**
     * The same with a compressed response, whose body the codec reads straight from the upstream socket: the client's
     * chunked response is cut without its last chunk (never made to look complete), and the connection is not reused.
     */
    @Test
    void aCompressedResponseCutShortIsCutForTheClientAndIsNotReused() throws Exception {
        String text = "<p>portico</p>".repeat(150);
        try (RawOrigin origin = RawOrigin.start(request -> {
            if (request.path().equals("/first")) {
                request.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + 2 * text.length()
                        + "\r\n\r\n" + text);
                request.socket().close();
            } else {
                request.write(OWN_ANSWER);
            }
        })) {
            vhost(Api.vhost("short-gzip", "short-gzip.test", origin.url()).put("compression", Api.enabled()));
            try (Socket socket = connect()) {
                send(socket, "GET /first HTTP/1.1\r\nHost: short-gzip.test\r\nAccept-Encoding: gzip\r\n\r\n");
                // Read until the proxy closes the connection (a stall would end in the read timeout instead).
                String received = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                String head = received.substring(0, Math.max(0, received.indexOf("\r\n\r\n")))
                        .toLowerCase(Locale.ROOT);
                assertTrue(head.contains("\r\ncontent-encoding: gzip"), received);
                assertTrue(head.contains("\r\ntransfer-encoding: chunked"), head);
                assertTrue(!received.endsWith("\r\n0\r\n\r\n"), "a cut body must not end like a whole one");
            }
            try (Socket socket = connect()) {
                send(socket, get("short-gzip.test", "/second"));
                assertEquals("second", RawHttp.readResponse(socket.getInputStream()).body());
            }
            assertEquals(2, origin.connections());
        }
    }
}
