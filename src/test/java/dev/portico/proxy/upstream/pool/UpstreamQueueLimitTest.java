package dev.portico.proxy.upstream.pool;

import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.AccessLogLines;
import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.UpstreamStates;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The queue for a busy upstream's connections ({@code upstreamLimits}): with one connection per upstream and event
 * loop, a request past {@code maxPending} waiting ones gets 503 {@code upstream_overloaded} at once, one that waits
 * past {@code queueTimeout} gets it then, the queued ones are served once the origin answers, an overloaded request
 * fails over to another upstream, and none of it counts against the upstream's health.
 */
@QuarkusTest
@TestProfile(UpstreamQueueLimitTest.OneConnection.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamQueueLimitTest extends DataPlaneTestSupport {

    /** One event loop (so every request meets the same pool), one connection per upstream, two may wait for it. */
    public static final class OneConnection implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.dataplane.event-loops", "1", "portico.upstream.max-connections", "1",
                    "portico.upstream.max-pending", "2");
        }
    }

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @Inject
    AccessLog accessLog;

    private final CompletableFuture<Void> release = new CompletableFuture<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final List<ScriptedOrigin> origins = new ArrayList<>();

    @AfterEach
    void releaseEverything() throws IOException {
        release.complete(null);
        for (Socket socket : sockets) {
            socket.close();
        }
        for (ScriptedOrigin origin : origins) {
            origin.close();
        }
    }

    /** An origin that holds {@code /held} until {@link #release} completes, and answers {@code /now} at once. */
    private ScriptedOrigin scripted(String now) {
        ScriptedOrigin origin = ScriptedOrigin.start()
                .on("/held", Reply.of(200, "late").held(release))
                .on("/now", Reply.of(200, now));
        origins.add(origin);
        return origin;
    }

    private static JsonObject vhost(String name, JsonObject limits, String... upstreams) {
        return Api.vhost(name, name + ".test", upstreams).put("upstreamLimits", limits);
    }

    /** Sends a GET whose answer the test reads later. */
    private Socket send(String host, String path) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), dataPlane.port());
        socket.setSoTimeout(20_000);
        sockets.add(socket);
        return RawHttp.sendGet(socket, host, path);
    }

    private static RawHttp.Response answer(Socket socket) throws IOException {
        return RawHttp.readResponse(socket.getInputStream());
    }

    /** Waits until upstream {@code index} of the vhost has {@code count} attempts picked and unfinished. */
    private static void awaitInFlight(String vhostId, int index, int count) {
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(count,
                UpstreamStates.upstream(vhostId, index).getLong("inFlight"), "attempts in flight"));
    }

    private double metric(String series) {
        return Scrape.of(metrics).valueOrZero(series);
    }

    private void assertOverloaded(RawHttp.Response refused, String detailNames) {
        assertEquals(503, refused.status(), refused.head());
        assertEquals("1", refused.header("Retry-After"));
        JsonObject problem = new JsonObject(refused.body());
        assertEquals("upstream_overloaded", problem.getString("reason"));
        assertTrue(problem.getString("detail").contains(detailNames), problem.encode());
        assertEquals(refused.header("X-Request-Id"), problem.getString("requestId"));
        JsonObject line = AccessLogLines.ofRequest(accessLog.file().orElseThrow(), refused.header("X-Request-Id"));
        assertEquals("upstream_overloaded", line.getString("reason"));
        assertEquals(503, line.getInteger("status"));
    }

    @Test
    void pastMaxPendingARequestGets503AtOnceAndTheQueuedOnesAreServedOnceTheOriginAnswers() throws Exception {
        ScriptedOrigin origin = scripted("now");
        // The global max-pending (2) applies; the queue timeout is long enough not to interfere.
        String id = vhost(vhost("queue", new JsonObject().put("queueTimeout", "30s"), origin.url()));
        double before = metric("portico_local_replies_total{reason=\"upstream_overloaded\"}");
        Socket holding = send("queue.test", "/held");
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(1, origin.count("/held")));
        List<Socket> queued = List.of(send("queue.test", "/held"), send("queue.test", "/held"));
        awaitInFlight(id, 0, 3);

        long start = System.nanoTime();
        RawHttp.Response refused = answer(send("queue.test", "/now"));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;

        assertOverloaded(refused, "upstreamLimits.maxPending");
        assertTrue(tookMillis < 2_000, "refused at once, not after a wait: " + tookMillis + " ms");
        assertEquals(0, origin.count("/now"), "nothing of the refused request reached the origin");
        assertEquals(1, origin.count("/held"), "the queued requests still wait for the one connection");
        JsonObject upstream = UpstreamStates.upstream(id, 0);
        assertEquals(1, upstream.getLong("overloaded"), upstream.encode());
        assertEquals(0, upstream.getLong("failures"), upstream.encode());
        assertEquals(3, upstream.getLong("requests"), "the refused attempt was never sent: " + upstream.encode());
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(before + 1,
                metric("portico_local_replies_total{reason=\"upstream_overloaded\"}")));

        release.complete(null);

        assertEquals(200, answer(holding).status());
        for (Socket socket : queued) {
            RawHttp.Response served = answer(socket);
            assertEquals(200, served.status(), served.head());
            assertEquals("late", served.body());
        }
        assertEquals(3, origin.count("/held"));
    }

    @Test
    void aRequestThatWaitsPastTheQueueTimeoutGets503AndTheNextIsServedOnceTheConnectionIsFree() throws Exception {
        ScriptedOrigin origin = scripted("now");
        String id = vhost(vhost("wait", new JsonObject().put("queueTimeout", "500ms"), origin.url()));
        Socket holding = send("wait.test", "/held");
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(1, origin.count("/held")));

        long start = System.nanoTime();
        RawHttp.Response refused = answer(send("wait.test", "/now"));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;

        assertOverloaded(refused, "upstreamLimits.queueTimeout");
        assertTrue(tookMillis >= 450 && tookMillis < 5_000, "refused after the queue timeout: " + tookMillis + " ms");
        assertEquals(0, origin.count("/now"));
        assertEquals(1, UpstreamStates.upstream(id, 0).getLong("overloaded"));

        release.complete(null);
        assertEquals(200, answer(holding).status());
        RawHttp.Response next = answer(send("wait.test", "/now"));
        assertEquals(200, next.status(), next.head());
        assertEquals("now", next.body());
    }

    @Test
    void anOverloadedRequestGoesToAnotherUpstreamAndLeavesTheFirstOnesHealthAlone() throws Exception {
        ScriptedOrigin primary = scripted("primary");
        ScriptedOrigin backup = scripted("backup");
        JsonObject definition = vhost("failover", new JsonObject().put("maxPending", 1).put("queueTimeout", "30s"),
                primary.url());
        definition.getJsonArray("upstreams").add(new JsonObject().put("url", backup.url()).put("backup", true));
        String id = vhost(definition);
        double retriesBefore = metric("portico_retries_total{reason=\"overloaded\",vhost=\"failover\"}");
        Socket holding = send("failover.test", "/held");
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(1, primary.count("/held")));
        Socket queued = send("failover.test", "/held");
        awaitInFlight(id, 0, 2);

        RawHttp.Response failedOver = answer(send("failover.test", "/now"));

        assertEquals(200, failedOver.status(), failedOver.head());
        assertEquals("backup", failedOver.body(), "the primary's queue was full: the backup answered");
        assertEquals(0, primary.count("/now"));
        JsonArray upstreams = UpstreamStates.of(id);
        assertEquals(1, upstreams.getJsonObject(0).getLong("overloaded"), upstreams.encode());
        assertEquals(0, upstreams.getJsonObject(0).getLong("failures"), upstreams.encode());
        assertEquals("healthy", upstreams.getJsonObject(0).getString("state"), upstreams.encode());
        assertEquals(retriesBefore + 1, metric("portico_retries_total{reason=\"overloaded\",vhost=\"failover\"}"));

        release.complete(null);
        assertEquals(200, answer(holding).status());
        assertEquals(200, answer(queued).status());
        // With max-fails 1 a single counted failure would have taken the primary out for 10 s, and the backup would
        // answer this one.
        RawHttp.Response after = answer(send("failover.test", "/now"));
        assertEquals("primary", after.body(), "the primary still takes traffic");
    }

    @Test
    void theApiNamesEachInvalidLimit() {
        JsonObject bad = vhost("bad-limits", new JsonObject().put("maxPending", 0).put("queueTimeout", "0s"),
                "http://127.0.0.1:1");
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"),
                "upstreamLimits.maxPending", "upstreamLimits.queueTimeout");

        JsonObject negative = vhost("bad-limits", new JsonObject().put("maxPending", -5).put("queueTimeout", "soon"),
                "http://127.0.0.1:1");
        assertInvalid(Api.given().body(negative.encode()).post("/api/v1/vhosts"),
                "upstreamLimits.maxPending", "upstreamLimits.queueTimeout");

        JsonObject tooMuch = vhost("bad-limits", new JsonObject().put("maxPending", 1_000_001)
                .put("queueTimeout", "2h"), "http://127.0.0.1:1");
        assertInvalid(Api.given().body(tooMuch.encode()).post("/api/v1/vhosts"),
                "upstreamLimits.maxPending", "upstreamLimits.queueTimeout");

        JsonObject wrongTypes = vhost("bad-limits", new JsonObject().put("maxPending", "many").put("queue", "1s"),
                "http://127.0.0.1:1");
        assertInvalid(Api.given().body(wrongTypes.encode()).post("/api/v1/vhosts"),
                "upstreamLimits.maxPending", "upstreamLimits.queue");
    }

    @Test
    void theLimitsReadBackNormalisedAndLeftOutTheyStayOut() {
        String id = vhost(vhost("limits", new JsonObject().put("maxPending", 64).put("queueTimeout", "2000ms"),
                "http://127.0.0.1:1"));
        Response read = Api.given().get("/api/v1/vhosts/" + id);
        assertEquals(64, read.jsonPath().getInt("upstreamLimits.maxPending"));
        assertEquals("2s", read.jsonPath().getString("upstreamLimits.queueTimeout"));

        String onlyTimeout = vhost(vhost("limits-timeout", new JsonObject().put("queueTimeout", "750ms"),
                "http://127.0.0.1:1"));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + onlyTimeout).asString());
        assertEquals(new JsonObject().put("queueTimeout", "750ms"), shown.getJsonObject("upstreamLimits"),
                "maxPending left out follows portico.upstream.max-pending");

        String none = vhost(vhost("limits-none", new JsonObject(), "http://127.0.0.1:1"));
        assertNull(new JsonObject(Api.given().get("/api/v1/vhosts/" + none).asString()).getValue("upstreamLimits"));
    }
}
