package dev.portico.proxy.upstream.pool;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.Scrape;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An origin may close an idle keep-alive connection just as Portico sends the next request on it (RFC 9112 section
 * 9.3.1): the request never reached the origin, so an idempotent one goes again on a fresh connection instead of
 * becoming a 502, with the vhost's default retry settings. The origin here closes every connection at its second
 * request without a byte, which is what that race looks like from Portico's side. Both requests of each test go over
 * one client connection, so they run on one event loop and share its pool.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaleConnectionTest extends DataPlaneTestSupport {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    /** Answers the first request of each connection; closes the connection, silently, at its second. */
    private static RawOrigin closingReusedConnections() throws IOException {
        return RawOrigin.start(request -> {
            if (request.number() > 1) {
                request.socket().close();
                return;
            }
            String body = "conn" + request.connection();
            request.write("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
        });
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static RawHttp.Response exchange(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return RawHttp.readResponse(socket.getInputStream());
    }

    private double staleReplays(String vhost) {
        return Scrape.of(metrics).valueOrZero(
                "portico_retries_total{reason=\"stale_connection\",vhost=\"" + vhost + "\"}");
    }

    @Test
    void anIdempotentRequestOnAConnectionTheOriginClosedGoesAgainOnAFreshOne() throws Exception {
        try (RawOrigin origin = closingReusedConnections()) {
            vhost(Api.vhost("stale-get", "stale-get.test", origin.url()));
            double before = staleReplays("stale-get");
            try (Socket socket = connect()) {
                RawHttp.Response first = exchange(socket, "GET /a HTTP/1.1\r\nHost: stale-get.test\r\n\r\n");
                assertEquals("conn1", first.body());
                RawHttp.Response second = exchange(socket, "GET /b HTTP/1.1\r\nHost: stale-get.test\r\n\r\n");
                assertEquals(200, second.status(), second.head());
                assertEquals("conn2", second.body(), "sent again on a new upstream connection");
            }
            assertEquals(2, origin.connections());
            assertEquals(before + 1, staleReplays("stale-get"));
        }
    }

    @Test
    void aPostIsNeverSentTwice() throws Exception {
        try (RawOrigin origin = closingReusedConnections()) {
            vhost(Api.vhost("stale-post", "stale-post.test", origin.url()));
            try (Socket socket = connect()) {
                exchange(socket, "GET /a HTTP/1.1\r\nHost: stale-post.test\r\n\r\n");
                RawHttp.Response post = exchange(socket, "POST /order HTTP/1.1\r\nHost: stale-post.test\r\n"
                        + "Content-Length: 5\r\n\r\nhello");
                assertEquals(502, post.status(), "the origin may have acted on it: " + post.head());
            }
            assertEquals(1, origin.connections(), "nothing was sent again");
        }
    }

    @Test
    void aFreshConnectionClosedWithoutAnAnswerIsAFailure() throws Exception {
        // Not a stale connection: the origin itself dropped the request, and only retry.on "reset" may resend it.
        try (RawOrigin origin = RawOrigin.start(request -> request.socket().close())) {
            vhost(Api.vhost("dropping", "dropping.test", origin.url()));
            try (Socket socket = connect()) {
                RawHttp.Response answer = exchange(socket, "GET / HTTP/1.1\r\nHost: dropping.test\r\n\r\n");
                assertEquals(502, answer.status(), answer.head());
                assertTrue(answer.head().toLowerCase().contains("x-request-id"), answer.head());
            }
            assertEquals(1, origin.connections());
        }
    }

    @Test
    void anOriginClosingEveryReusedConnectionStillGetsAnAnswerFromAFreshOne() throws Exception {
        // Three requests over one client connection: each reuse meets a closed connection, and a fresh one answers.
        try (RawOrigin origin = closingReusedConnections()) {
            vhost(Api.vhost("stale-many", "stale-many.test", origin.url()));
            try (Socket socket = connect()) {
                for (int i = 1; i <= 3; i++) {
                    RawHttp.Response answer = exchange(socket, "GET /" + i
                            + " HTTP/1.1\r\nHost: stale-many.test\r\n\r\n");
                    assertEquals(200, answer.status(), answer.head());
                    assertEquals("conn" + i, answer.body());
                }
            }
        }
    }
}
