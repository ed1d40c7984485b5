package dev.portico.proxy.upstream.retry;

import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.AccessLogLines;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.portico.testing.Api.create;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retries against real misbehaving origins: which failures are retried, on which upstream, for which requests, with
 * which body, and within the budget.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RetryTest extends DataPlaneTestSupport {

    @Inject
    AccessLog accessLog;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private final java.util.List<AutoCloseable> origins = new java.util.ArrayList<>();

    /**
     * A vhost {@code name} (host {@code name.test}) whose first upstream gets the first request (weight 100 against
     * 1: the smooth weighted round robin starts with it), with these retry settings.
     */
    private static void vhost(String name, JsonObject retry, String first, String second) {
        JsonArray upstreams = new JsonArray().add(new JsonObject().put("url", first).put("weight", 100));
        if (second != null) {
            upstreams.add(new JsonObject().put("url", second));
        }
        create(new JsonObject().put("name", name).put("hostnames", new JsonArray().add(name + ".test"))
                .put("upstreams", upstreams).put("retry", retry));
    }

    private static JsonObject on(String... conditions) {
        JsonArray list = new JsonArray();
        for (String condition : conditions) {
            list.add(condition);
        }
        return new JsonObject().put("on", list);
    }

    private ScriptedOrigin scripted() {
        ScriptedOrigin origin = ScriptedOrigin.start();
        origins.add(origin);
        return origin;
    }

    private RawOrigin raw(RawOrigin.Script script) throws IOException {
        RawOrigin origin = RawOrigin.start(script);
        origins.add(origin);
        return origin;
    }

    /** Reads the request (head and body) and closes the connection without a word. */
    private RawOrigin resetting() throws IOException {
        return raw(request -> request.socket().close());
    }

    @org.junit.jupiter.api.AfterEach
    void closeOrigins() throws Exception {
        for (AutoCloseable origin : origins) {
            origin.close();
        }
    }

    private double metric(String series) {
        return Scrape.of(metrics).valueOrZero(series);
    }

    @Test
    void aRefusedConnectIsRetriedOnAnotherUpstreamAndTheAccessLogCountsTwoAttempts() throws Exception {
        ScriptedOrigin healthy = scripted().on("/", Reply.of(200, "healthy"));
        vhost("refused", new JsonObject(), "http://127.0.0.1:" + BrokenOrigins.refusingPort(), healthy.url());
        double before = metric("portico_retries_total{reason=\"connect_failure\",vhost=\"refused\"}");

        ProxyClient.Reply reply = client().get("refused.test", "/");

        assertEquals(200, reply.status());
        assertEquals("healthy", reply.text());
        JsonObject line = AccessLogLines.ofRequest(accessLog.file().orElseThrow(), reply.header("X-Request-Id"));
        assertEquals(2, line.getInteger("attempts"));
        assertEquals(healthy.url(), line.getString("upstream"));
        assertEquals(before + 1, metric("portico_retries_total{reason=\"connect_failure\",vhost=\"refused\"}"));
    }

    @Test
    void aPostWithABodyIsRetriedOnConnectFailureSinceNothingWasSent() throws Exception {
        ScriptedOrigin healthy = scripted().on("/upload", Reply.of(201, "stored"));
        vhost("post-refused", new JsonObject(), "http://127.0.0.1:" + BrokenOrigins.refusingPort(), healthy.url());

        ProxyClient.Reply reply = client().send(HttpMethod.POST, "post-refused.test", "/upload", Map.of(),
                Buffer.buffer("small body"));

        assertEquals(201, reply.status());
        assertEquals(List.of("small body"), healthy.bodies("/upload"));
    }

    @Test
    void a503IsRetriedForAGetButNotForAPostWhoseBodyReachedTheUpstream() {
        ScriptedOrigin origin = scripted()
                .inTurn("/get", Reply.of(503, "busy"), Reply.of(200, "fine"))
                .inTurn("/post", Reply.of(503, "busy"), Reply.of(200, "fine"));
        vhost("burst", on("503"), origin.url(), null);

        ProxyClient.Reply get = client().get("burst.test", "/get");
        ProxyClient.Reply post = client().send(HttpMethod.POST, "burst.test", "/post", Map.of(),
                Buffer.buffer("order=1"));

        assertEquals(200, get.status());
        assertEquals("fine", get.text());
        assertEquals(2, origin.count("/get"), "the lone upstream is tried again when there is no other");
        assertEquals(503, post.status(), "a POST that reached the upstream is never sent twice");
        assertEquals("busy", post.text());
        assertEquals(1, origin.count("/post"));
    }

    @Test
    void a503IsRetriedOnTheOtherUpstreamAndItsConnectionGoesBackToThePool() throws Exception {
        String body = "x".repeat(10_000);
        RawOrigin busy = raw(request -> request.write("HTTP/1.1 503 Service Unavailable\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body));
        ScriptedOrigin healthy = scripted().on("/", Reply.of(200, "healthy"));
        vhost("status", on("502", "503", "504"), busy.url(), healthy.url());

        // One connection: every request on one event loop, and so on one pool of upstream connections.
        try (ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1)) {
            for (int i = 0; i < 3; i++) {
                ProxyClient.Reply reply = client.get("status.test", "/");
                assertEquals(200, reply.status());
                assertEquals("healthy", reply.text());
            }
        }
        assertEquals(3, busy.heads().size(), "a 503 is a response: the busy upstream stays in rotation");
        assertEquals(1, busy.connections(), "each discarded 503 was read to its end and its connection reused");
    }

    @Test
    void aPutIsReplayedWithItsBodyAfterAReset() throws Exception {
        RawOrigin resetting = resetting();
        ScriptedOrigin healthy = scripted().on("/doc", Reply.of(204, ""));
        vhost("replay", on("reset"), resetting.url(), healthy.url());
        String body = "{\"title\":\"the same bytes, twice\"}".repeat(50);

        ProxyClient.Reply reply = client().send(HttpMethod.PUT, "replay.test", "/doc",
                Map.of("Content-Type", "application/json"), Buffer.buffer(body));

        assertEquals(204, reply.status());
        assertEquals(1, resetting.heads().size());
        assertEquals(List.of(body), healthy.bodies("/doc"));
        assertEquals(String.valueOf(body.length()), healthy.last("/doc").headers().get("Content-Length"));
    }

    @Test
    void aPostIsNotRetriedAfterAReset() throws Exception {
        RawOrigin resetting = resetting();
        ScriptedOrigin healthy = scripted().on("/pay", Reply.of(200, "paid twice"));
        vhost("no-replay", on("reset"), resetting.url(), healthy.url());

        ProxyClient.Reply reply = client().send(HttpMethod.POST, "no-replay.test", "/pay", Map.of(),
                Buffer.buffer("amount=10"));

        assertEquals(502, reply.status());
        assertEquals("upstream_protocol_error", reply.json().getString("reason"));
        assertEquals(0, healthy.count("/pay"));
    }

    @Test
    void aBodyLargerThanTheRetryBufferIsNotRetried() throws Exception {
        RawOrigin resetting = resetting();
        ScriptedOrigin healthy = scripted().on("/doc", Reply.of(204, ""));
        vhost("big", on("reset").put("retryBufferSize", "1KiB"), resetting.url(), healthy.url());

        ProxyClient.Reply reply = client().send(HttpMethod.PUT, "big.test", "/doc", Map.of(),
                Buffer.buffer("y".repeat(4096)));

        assertEquals(502, reply.status());
        assertEquals(0, healthy.count("/doc"));
    }

    @Test
    void aTryThatTakesLongerThanThePerTryTimeoutIsRetried() {
        ScriptedOrigin slow = scripted().on("/", Reply.of(200, "slow").delayed(10_000));
        ScriptedOrigin healthy = scripted().on("/", Reply.of(200, "healthy"));
        vhost("per-try", on("timeout").put("perTryTimeout", "300ms"), slow.url(), healthy.url());
        double before = metric("portico_retries_total{reason=\"timeout\",vhost=\"per-try\"}");
        long start = System.nanoTime();

        ProxyClient.Reply reply = client().get("per-try.test", "/");

        assertEquals(200, reply.status());
        assertEquals("healthy", reply.text());
        assertEquals(1, slow.count("/"));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(8), "not the read timeout of 60s");
        assertEquals(before + 1, metric("portico_retries_total{reason=\"timeout\",vhost=\"per-try\"}"));
    }

    @Test
    void aResetInTheMiddleOfTheResponseHeadIsRetriedForAGet() throws Exception {
        RawOrigin broken = raw(request -> {
            request.write("HTTP/1.1 200 OK\r\nContent-Le");
            request.socket().close();
        });
        ScriptedOrigin healthy = scripted().on("/", Reply.of(200, "healthy"));
        vhost("mid-head", on("reset"), broken.url(), healthy.url());

        ProxyClient.Reply reply = client().get("mid-head.test", "/");

        assertEquals(200, reply.status());
        assertEquals("healthy", reply.text());
        assertEquals(1, broken.heads().size());
    }

    @Test
    void nothingIsRetriedOnceTheResponseHasStarted() throws Exception {
        RawOrigin truncating = raw(request -> {
            request.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
            request.socket().close();
        });
        ScriptedOrigin healthy = scripted().on("/", Reply.of(200, "healthy"));
        vhost("started", on("connect_failure", "timeout", "reset", "502"), truncating.url(), healthy.url());

        assertThrows(RuntimeException.class, () -> client().get("started.test", "/"));

        assertEquals(0, healthy.count("/"));
    }

    @Test
    void nothingIsRetriedOnceAnInterimResponseWentToTheClient() throws Exception {
        RawOrigin hinting = raw(request -> {
            request.write("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
            Thread.sleep(100);
            request.socket().close();
        });
        ScriptedOrigin healthy = scripted().on("/", Reply.of(200, "healthy"));
        vhost("hinted", on("reset"), hinting.url(), healthy.url());

        ProxyClient.Reply reply = client().get("hinted.test", "/");

        assertEquals(502, reply.status());
        assertEquals(0, healthy.count("/"));
    }

    @Test
    void withEveryUpstreamFailingRetriesStopAtTheBudgetAndTheExhaustionIsCounted() {
        ScriptedOrigin a = scripted().on("/", Reply.of(503, "a"));
        ScriptedOrigin b = scripted().on("/", Reply.of(503, "b"));
        vhost("budget", on("503").put("attempts", 2).put("budget", 0.2).put("minRetriesPerSecond", 0)
                .put("backoff", "0s"), a.url(), b.url());
        int requests = 50;
        // One connection: every request on one event loop, whose budget is then exactly 20% of them.
        try (ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1)) {
            for (int i = 0; i < requests; i++) {
                assertEquals(503, client.get("budget.test", "/").status());
            }
        }

        int retries = a.count("/") + b.count("/") - requests;
        assertEquals(requests / 5, retries, "20% of the requests");
        assertEquals(retries, metric("portico_retries_total{reason=\"status\",vhost=\"budget\"}"));
        assertEquals(requests - retries, metric("portico_retry_budget_exhausted_total{vhost=\"budget\"}"));
    }
}
