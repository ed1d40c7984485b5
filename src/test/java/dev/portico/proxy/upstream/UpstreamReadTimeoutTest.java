package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A vhost's {@code readTimeout} is the longest wait for the response head once the request is sent, and between two
 * reads of the response body (nginx {@code proxy_read_timeout}), not counting the time Portico holds the upstream back
 * for a client that reads slowly. A body that stalls mid-way resets the client connection and closes the upstream
 * connection; a cache fill that stalls is abandoned, not stored.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamReadTimeoutTest extends DataPlaneTestSupport {

    private static final String TIMEOUT_SERIES = "portico_local_replies_total{reason=\"upstream_response_timeout\"}";
    private static final String HALF = "x".repeat(500);

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private double timeouts() {
        String text = RestAssured.given().get(metrics).then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("^" + Pattern.quote(TIMEOUT_SERIES) + " ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
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

    /** Sends half of a 1000-byte body, then waits for Portico to give up on it. */
    private static RawOrigin stallingOrigin(String extraHeaders) throws IOException {
        return RawOrigin.start(request -> {
            request.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n" + extraHeaders + "\r\n" + HALF);
            request.awaitClosedByPeer(20_000);
        });
    }

    /**
     * Reads the head and the first half of the body, then expects the connection to end (not time out) within 5 s;
     * returns the milliseconds from the first half to the end.
     */
    private static long readUntilCut(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        String head = RawHttp.readUntil(in, "\r\n\r\n");
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
        assertEquals(HALF, new String(in.readNBytes(HALF.length()), StandardCharsets.ISO_8859_1));
        long start = System.nanoTime();
        try {
            int next = in.read();
            assertEquals(-1, next, "no byte beyond the half the origin sent");
        } catch (SocketTimeoutException stillOpen) {
            fail("the client connection is still open 10 s after the upstream stalled");
        } catch (IOException reset) {
            // a reset is how a truncated response ends
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void anUpstreamThatStallsMidBodyIsCutAfterTheReadTimeout() throws Exception {
        try (RawOrigin origin = stallingOrigin("")) {
            vhost(Api.vhost("stall", "stall.test", origin.url()).put("readTimeout", "500ms"));
            double before = timeouts();
            try (Socket socket = connect()) {
                send(socket, "GET /half HTTP/1.1\r\nHost: stall.test\r\n\r\n");
                long waited = readUntilCut(socket);
                assertTrue(waited >= 400 && waited < 5000, "cut after " + waited + " ms");
            }
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer(),
                    "the stalled upstream connection is closed, never reused"));
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(before + 1, timeouts()));
        }
    }

    @Test
    void aBodyThatKeepsComingIsNotCutHoweverLongItTakes() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> {
            request.write("HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n");
            for (int i = 0; i < 8; i++) {
                Pacing.pause(Duration.ofMillis(250), "an origin trickling its body, each byte within the timeout");
                request.write("b");
            }
        })) {
            vhost(Api.vhost("trickle", "trickle.test", origin.url()).put("readTimeout", "700ms"));
            ProxyClient.Reply reply = client().get("trickle.test", "/trickle");
            assertEquals(200, reply.status());
            assertEquals("bbbbbbbb", reply.text());
        }
    }

    @Test
    void interimResponsesCountAsReadsWhileTheHeadIsAwaited() throws Exception {
        try (RawOrigin origin = RawOrigin.start(request -> {
            // Each 102 comes within the read timeout; all of them together take longer.
            for (int i = 0; i < 4; i++) {
                Pacing.pause(Duration.ofMillis(300), "an origin busy for longer than the timeout, sending 102s");
                request.write("HTTP/1.1 102 Processing\r\n\r\n");
            }
            request.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        })) {
            vhost(Api.vhost("keeps-busy", "keeps-busy.test", origin.url()).put("readTimeout", "700ms"));
            try (Socket socket = connect()) {
                send(socket, "GET /work HTTP/1.1\r\nHost: keeps-busy.test\r\n\r\n");
                InputStream in = socket.getInputStream();
                for (int i = 0; i < 4; i++) {
                    RawHttp.Response interim = RawHttp.readResponse(in);
                    assertEquals(102, interim.status(), interim.head());
                }
                RawHttp.Response done = RawHttp.readResponse(in);
                assertEquals(200, done.status(), done.head());
                assertEquals("ok", done.body());
            }
        }
    }

    @Test
    void aClientThatReadsSlowlyIsNotCut() throws Exception {
        // Large enough that Portico must stop reading the upstream while the client does not read.
        long total = 64L * 1024 * 1024;
        OriginServer origin = originWithFixedSocketBuffers("a");
        vhost(Api.vhost("slow-reader", "slow-reader.test", origin.url()).put("readTimeout", "500ms"));
        ProxyClient client = clientWithFixedSocketBuffers();
        RequestOptions options = new RequestOptions().setHost("127.0.0.1").setPort(dataPlane.port())
                .setURI("/bytes/" + total).putHeader("Host", "slow-reader.test").setIdleTimeout(60_000);
        HttpClientResponse response = TestVertx.onContext(TestVertx.get().getOrCreateContext(),
                () -> client.raw().request(options).compose(request -> request.send()
                        .onSuccess(HttpClientResponse::pause)));
        // The client reads nothing for four read timeouts, once the body has begun: the upstream is held back all
        // that time, which is Portico's doing, not the upstream's.
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(origin.bytesSent() > 0));
        Pacing.pause(Duration.ofSeconds(2), "a client that reads nothing for four read timeouts");
        assertTrue(origin.bytesSent() < total, "the upstream was held back");
        long received = TestVertx.onContext(TestVertx.get().getOrCreateContext(), () -> {
            Promise<Long> done = Promise.promise();
            long[] count = new long[1];
            response.handler(chunk -> count[0] += chunk.length());
            response.exceptionHandler(done::tryFail);
            response.endHandler(v -> done.tryComplete(count[0]));
            response.resume();
            return done.future();
        });
        assertEquals(total, received);
    }

    @Test
    void aCacheFillThatStallsWithNoClientLeftIsAbandonedAndNotStored() throws Exception {
        try (RawOrigin origin = stallingOrigin("Cache-Control: max-age=60\r\n")) {
            vhost(Api.vhost("stall-fill", "stall-fill.test", origin.url()).put("readTimeout", "500ms")
                    .put("cache", new JsonObject().put("enabled", true)));
            ProxyClient waiterClient = client();
            Future<ProxyClient.Reply> waiter;
            try (Socket leader = connect()) {
                send(leader, "GET /fill HTTP/1.1\r\nHost: stall-fill.test\r\n\r\n");
                InputStream in = leader.getInputStream();
                RawHttp.readUntil(in, "\r\n\r\n");
                // A second request joins the fill and streams the same body.
                waiter = waiterClient.sendAsync(HttpMethod.GET, "stall-fill.test", "/fill", Map.of(), null);
                Eventually.within(Duration.ofSeconds(10), () -> assertEquals(2, dataPlane.inFlight()));
            }
            // The leader's client is gone: the fill reads on for the waiter alone, until the upstream stalls too long.
            long start = System.nanoTime();
            try {
                ProxyClient.Reply reply = TestVertx.await(waiter);
                fail("the waiter got a complete response from a body that never completed: " + reply.status());
            } catch (IllegalStateException broken) {
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue(waited < 5000, "the waiter was cut after " + waited + " ms");
            }
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer()));
            try (Socket again = connect()) {
                send(again, "GET /fill HTTP/1.1\r\nHost: stall-fill.test\r\n\r\n");
                readUntilCut(again);
            }
            assertEquals(2, origin.heads().size(), "nothing was stored from the stalled fill");
        }
    }

    @Test
    void aBackgroundRefreshThatStallsMidBodyIsAbandoned() throws Exception {
        AtomicInteger served = new AtomicInteger();
        try (RawOrigin origin = RawOrigin.start(request -> {
            if (served.incrementAndGet() == 1) {
                request.write("HTTP/1.1 200 OK\r\nCache-Control: max-age=0, stale-while-revalidate=60\r\n"
                        + "Content-Length: 3\r\n\r\nold");
            } else {
                request.write("HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 1000\r\n\r\n"
                        + HALF);
                request.awaitClosedByPeer(20_000);
            }
        })) {
            vhost(Api.vhost("stall-refresh", "stall-refresh.test", origin.url()).put("readTimeout", "500ms")
                    .put("cache", new JsonObject().put("enabled", true)));
            ProxyClient client = client();
            assertEquals("old", client.get("stall-refresh.test", "/r").text());
            // Stale: served at once, and refreshed in the background by a request no client waits on.
            ProxyClient.Reply stale = client.get("stall-refresh.test", "/r");
            assertEquals("old", stale.text());
            assertTrue(stale.header("Cache-Status").contains("stale-while-revalidate"), stale.header("Cache-Status"));
            Eventually.within(Duration.ofSeconds(5), () -> assertEquals(1, origin.closedByPeer(),
                    "the refresh gave up on the stalled body and closed its connection"));
            assertEquals("old", client.get("stall-refresh.test", "/r").text(), "nothing was stored from it");
        }
    }
}
