package dev.portico.proxy.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every local reply: its status, its reason code, and the request id in the problem body. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ErrorStatusTest extends DataPlaneTestSupport {

    private static void assertProblem(ProxyClient.Reply reply, int status, String reason) {
        assertEquals(status, reply.status(), reply.text());
        assertEquals("application/problem+json", reply.header("Content-Type"));
        JsonObject problem = reply.json();
        assertEquals(status, problem.getInteger("status"));
        assertEquals(reason, problem.getString("reason"));
        assertEquals("urn:portico:problem:" + reason, problem.getString("type"));
        assertEquals(reply.header("X-Request-Id"), problem.getString("requestId"));
        assertTrue(problem.getString("requestId").length() > 0);
    }

    private static String problemBody(String raw) {
        return raw.substring(raw.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void unknownHostIs404() {
        ProxyClient.Reply reply = client().send(HttpMethod.GET, "nobody.test", "/", Map.of("X-Request-Id", "trace-1"),
                null);
        assertProblem(reply, 404, "vhost_not_found");
        assertEquals("trace-1", reply.json().getString("requestId"));
        assertEquals("nosniff", reply.header("X-Content-Type-Options"));
    }

    @Test
    void disabledVhostIs404() {
        vhost(Api.vhost("off", "off.test", origin("a").url()).put("enabled", false));
        assertProblem(client().get("off.test", "/echo"), 404, "vhost_disabled");
    }

    @Test
    void wildcardsMatchSubdomainsButNotTheBareSuffix() {
        OriginServer exact = origin("exact");
        OriginServer wild = origin("wild");
        OriginServer deeper = origin("deeper");
        vhost("exact", "api.wild.test", exact);
        vhost(Api.vhost("wild", "*.wild.test", wild.url()));
        vhost(Api.vhost("deeper", "*.eu.wild.test", deeper.url()));
        ProxyClient client = client();
        assertEquals("exact", client.get("API.Wild.Test", "/echo").json().getString("origin"));
        assertEquals("wild", client.get("a.wild.test", "/echo").json().getString("origin"));
        assertEquals("wild", client.get("a.b.wild.test.", "/echo").json().getString("origin"));
        assertEquals("deeper", client.get("x.eu.wild.test", "/echo").json().getString("origin"));
        assertProblem(client.get("wild.test", "/echo"), 404, "vhost_not_found");
    }

    @Test
    void missingHostIs400() throws Exception {
        String raw = RawHttp.exchange(dataPlane.port(), "GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertEquals(400, RawHttp.status(raw));
        assertTrue(problemBody(raw).contains("\"reason\":\"missing_host\""), raw);
    }

    @Test
    void duplicateOrInvalidHostIs400() throws Exception {
        String twice = RawHttp.exchange(dataPlane.port(),
                "GET / HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\nConnection: close\r\n\r\n");
        assertEquals(400, RawHttp.status(twice));
        assertTrue(problemBody(twice).contains("invalid_host"), twice);
        String bad = RawHttp.exchange(dataPlane.port(), "GET / HTTP/1.1\r\nHost: a b/c\r\nConnection: close\r\n\r\n");
        assertEquals(400, RawHttp.status(bad));
    }

    @Test
    void malformedRequestIs400() throws Exception {
        String raw = RawHttp.exchange(dataPlane.port(), "THIS IS NOT HTTP\r\n\r\n");
        assertEquals(400, RawHttp.status(raw));
        assertTrue(problemBody(raw).contains("\"reason\":\"bad_request\""), raw);
        assertTrue(raw.contains("X-Request-Id: "), raw);
    }

    @Test
    void oversizedHeadersAre431() throws Exception {
        String raw = RawHttp.exchange(dataPlane.port(), "GET / HTTP/1.1\r\nHost: a.test\r\nX-Big: "
                + "x".repeat(40_000) + "\r\n\r\n");
        assertEquals(431, RawHttp.status(raw));
        assertTrue(problemBody(raw).contains("request_header_too_large"), raw);
    }

    @Test
    void tooLongUriIs414() throws Exception {
        String raw = RawHttp.exchange(dataPlane.port(), "GET /" + "a".repeat(9000) + " HTTP/1.1\r\nHost: a.test\r\n\r\n");
        assertEquals(414, RawHttp.status(raw));
        assertTrue(problemBody(raw).contains("uri_too_long"), raw);
    }

    @Test
    void connectAndTraceAre405() throws Exception {
        String raw = RawHttp.exchange(dataPlane.port(), "TRACE / HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
        assertEquals(405, RawHttp.status(raw));
        assertTrue(raw.contains("Allow: "), raw);
    }

    @Test
    void refusedConnectionIs502AndALoneUpstreamIsAlwaysRetried() throws Exception {
        int port = BrokenOrigins.refusingPort();
        vhost(Api.vhost("refused", "refused.test", "http://127.0.0.1:" + port));
        ProxyClient client = client();
        assertProblem(client.get("refused.test", "/"), 502, "upstream_connect_failure");
        assertProblem(client.get("refused.test", "/"), 502, "upstream_connect_failure");
    }

    @Test
    void whenEveryUpstreamFailedTheNextRequestsAre503() throws Exception {
        String first = "http://127.0.0.1:" + BrokenOrigins.refusingPort();
        String second = "http://127.0.0.1:" + BrokenOrigins.refusingPort();
        vhost(Api.vhost("all-down", "all-down.test", first, second));
        ProxyClient client = client();
        // Both are tried (a refused connect is safe to retry) and both fail...
        assertProblem(client.get("all-down.test", "/"), 502, "upstream_connect_failure");
        // ...so with max-fails 1 both are out for fail-timeout (10 s): nothing is left to try.
        assertProblem(client.get("all-down.test", "/"), 503, "no_healthy_upstream");
    }

    @Test
    void connectTimeoutIs504() throws Exception {
        try (BrokenOrigins.Unanswering unanswering = new BrokenOrigins.Unanswering()) {
            vhost(Api.vhost("slow-connect", "slow-connect.test", "http://127.0.0.1:" + unanswering.port())
                    .put("connectTimeout", "300ms"));
            long start = System.nanoTime();
            assertProblem(client().get("slow-connect.test", "/"), 504, "upstream_connect_timeout");
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5));
        }
    }

    @Test
    void silentUpstreamIs504() {
        vhost(Api.vhost("hang", "hang.test", origin("a").url()).put("readTimeout", "300ms"));
        assertProblem(client().get("hang.test", "/hang"), 504, "upstream_response_timeout");
    }

    @Test
    void theReadTimeoutRunsFromTheRequestSentToTheResponseHead() {
        vhost(Api.vhost("read-timeout", "read-timeout.test", origin("a").url()).put("readTimeout", "600ms"));
        ProxyClient client = client();
        // Many requests answered in time leave no deadline behind to fire on a later one.
        for (int i = 0; i < 50; i++) {
            assertEquals(200, client.get("read-timeout.test", "/slow/" + (1 + i % 5)).status());
        }
        assertEquals(200, client.get("read-timeout.test", "/slow/300").status());
        long start = System.nanoTime();
        assertProblem(client.get("read-timeout.test", "/slow/2000"), 504, "upstream_response_timeout");
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waited >= 600 && waited < 1500, "timed out after " + waited + " ms");
    }

    @Test
    void nonHttpUpstreamIs502() throws Exception {
        try (BrokenOrigins.Garbage garbage = new BrokenOrigins.Garbage()) {
            vhost(Api.vhost("garbage", "garbage.test", "http://127.0.0.1:" + garbage.port()));
            assertProblem(client().get("garbage.test", "/"), 502, "upstream_protocol_error");
        }
    }

    @Test
    void upstreamDyingMidBodyResetsTheClientConnection() {
        vhost("truncate", "truncate.test", origin("a"));
        ProxyClient client = client();
        RequestOptions options = new RequestOptions().setHost("127.0.0.1").setPort(dataPlane.port())
                .setURI("/truncate").putHeader("Host", "truncate.test");
        // The head (200, Content-Length 1000) is already forwarded; the client must see a broken body, not a
        // short body that looks complete.
        assertThrows(IllegalStateException.class, () -> TestVertx.await(client.raw().request(options)
                .compose(request -> request.send().compose(response -> {
                    assertEquals(200, response.statusCode());
                    return response.body();
                }))));
        assertEquals(200, client.get("truncate.test", "/echo").status());
    }

    @Test
    void aRequestCarryingOurOwnViaIsALoop() {
        vhost("loop", "loop.test", origin("a"));
        String pseudonym = Api.given().get("/api/v1/status").then().extract().path("via");
        assertProblem(client().send(HttpMethod.GET, "loop.test", "/echo", Map.of("Via", "1.1 " + pseudonym), null),
                508, "loop_detected");
        assertEquals(200, client().send(HttpMethod.GET, "loop.test", "/echo",
                Map.of("Via", "1.1 " + pseudonym + "-other"), null).status());
    }

    @Test
    void aVhostPointingAtThePorticoItselfIsStoppedAfterOneHop() {
        vhost(Api.vhost("self", "self.test", "http://127.0.0.1:" + dataPlane.port()));
        ProxyClient.Reply reply = client().get("self.test", "/");
        assertEquals(508, reply.status());
        assertEquals("loop_detected", reply.json().getString("reason"));
    }

    @Test
    void aFailingVhostDoesNotAffectAHealthyOne() throws Exception {
        vhost("healthy", "healthy.test", origin("a"));
        vhost(Api.vhost("broken", "broken.test", "http://127.0.0.1:" + BrokenOrigins.refusingPort()));
        vhost(Api.vhost("stuck", "stuck.test", origin("b").url()).put("readTimeout", "1s"));
        ProxyClient client = client();
        List<CompletableFuture<ProxyClient.Reply>> healthy = new ArrayList<>();
        List<CompletableFuture<ProxyClient.Reply>> failing = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            failing.add(CompletableFuture.supplyAsync(() -> client.get("broken.test", "/")));
            failing.add(CompletableFuture.supplyAsync(() -> client.get("stuck.test", "/hang")));
            healthy.add(CompletableFuture.supplyAsync(() -> client.get("healthy.test", "/echo")));
        }
        for (CompletableFuture<ProxyClient.Reply> reply : healthy) {
            assertEquals(200, reply.get(30, TimeUnit.SECONDS).status());
        }
        for (CompletableFuture<ProxyClient.Reply> reply : failing) {
            int status = reply.get(30, TimeUnit.SECONDS).status();
            assertTrue(status == 502 || status == 503 || status == 504, "status " + status);
        }
    }
}
