package dev.portico.proxy.upstream.breaker;

import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.SseEvents;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A vhost's circuit breaker with real origins that answer 503 and recover: it opens on the failed share once it has
 * enough requests, refuses with 503 {@code circuit_open} and {@code Retry-After} without asking the origins, turns
 * half-open after the cool-down, opens again when a trial fails and closes when the trials succeed; its state is in the
 * upstreams endpoint, a {@code circuit} event and the metrics.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CircuitBreakerTest extends DataPlaneTestSupport {

    @TestHTTPResource("/")
    URL api;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private final List<ScriptedOrigin> origins = new ArrayList<>();
    private HttpClient streamClient;

    @AfterEach
    void close() {
        origins.forEach(ScriptedOrigin::close);
        origins.clear();
        if (streamClient != null) {
            streamClient.close();
        }
    }

    private ScriptedOrigin origin(String name, AtomicBoolean failing) {
        ScriptedOrigin origin = ScriptedOrigin.failingWhile(name, failing);
        origins.add(origin);
        return origin;
    }

    private int originRequests() {
        return origins.stream().mapToInt(o -> o.count("/app")).sum();
    }

    private static JsonObject breaker(String id) {
        String body = Api.given().get("/api/v1/vhosts/" + id + "/upstreams").then().statusCode(200).extract()
                .asString();
        return new JsonObject(body).getJsonObject("circuitBreaker");
    }

    private static JsonObject awaitBreaker(String id, String state) {
        return Eventually.value(Duration.ofSeconds(10), () -> breaker(id), b -> state.equals(b.getString("state")));
    }

    @Test
    void itOpensRefusesHalfOpensAfterTheCoolDownAndClosesWhenTheTrialsSucceed() throws Exception {
        AtomicBoolean failing = new AtomicBoolean();
        String id = Api.create(Api.vhost("guarded", "guarded.test", origin("a", failing).url(),
                        origin("b", failing).url())
                // Outlier detection would take the upstreams out one by one: this test is about the group.
                .put("outlierDetection", new JsonObject().put("enabled", false))
                .put("circuitBreaker", new JsonObject().put("failureRatio", 0.5).put("minRequests", 6)
                        .put("window", "1m").put("coolDown", "2s").put("halfOpenRequests", 2)));
        streamClient = TestVertx.get().createHttpClient();
        BlockingQueue<SseEvents.Event> events = SseEvents.open(streamClient, api, "/api/v1/stats/stream?vhost=guarded");
        ProxyClient client = client();
        JsonObject closed = breaker(id);
        assertEquals("closed", closed.getString("state"));
        assertEquals(0, closed.getLong("opens"));

        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.get("guarded.test", "/app").status());
        }
        failing.set(true);
        for (int i = 0; i < 2; i++) {
            assertEquals(503, client.get("guarded.test", "/app").status());
        }
        assertEquals("closed", breaker(id).getString("state"), "2 of 5 failed, and 5 are fewer than minRequests");
        assertEquals(503, client.get("guarded.test", "/app").status());
        JsonObject open = breaker(id);
        assertEquals("open", open.getString("state"));
        assertEquals("50% of 6 requests failed in 1m, open for 2s", open.getString("reason"));
        assertEquals(1, open.getLong("opens"));

        ProxyClient.Reply refused = client.get("guarded.test", "/app");
        assertEquals(503, refused.status());
        assertEquals("circuit_open", refused.json().getString("reason"));
        assertTrue(Set.of("1", "2").contains(refused.header("Retry-After")), refused.header("Retry-After"));
        assertEquals(6, originRequests(), "an open breaker sends nothing upstream");

        SseEvents.Event event;
        do {
            event = events.poll(10, TimeUnit.SECONDS);
            assertNotNull(event, "no circuit event within 10 s");
        } while (!"circuit".equals(event.name()));
        JsonObject data = new JsonObject(event.data());
        assertEquals("guarded", data.getString("vhost"));
        assertEquals("closed", data.getString("from"));
        assertEquals("open", data.getString("to"));
        assertEquals("50% of 6 requests failed in 1m, open for 2s", data.getString("reason"));
        Eventually.within(Duration.ofSeconds(5), () -> {
            Scrape scrape = Scrape.of(metrics);
            assertEquals(1, scrape.value("portico_circuit_state{vhost=\"guarded\",state=\"open\"}"));
            assertEquals(0, scrape.value("portico_circuit_state{vhost=\"guarded\",state=\"closed\"}"));
            assertTrue(scrape.value("portico_local_replies_total{reason=\"circuit_open\"}") >= 1);
        });

        // After the cool-down a trial goes through; the origins still fail, so it opens again.
        assertEquals("cool-down of 2s over: up to 2 trial requests",
                awaitBreaker(id, "half-open").getString("reason"));
        assertEquals("busy", client.get("guarded.test", "/app").text());
        JsonObject reopened = breaker(id);
        assertEquals("open", reopened.getString("state"));
        assertEquals("a trial request failed (503), open for 2s", reopened.getString("reason"));
        assertEquals(2, reopened.getLong("opens"));
        assertEquals(503, client.get("guarded.test", "/app").status());
        assertEquals(7, originRequests());

        failing.set(false);
        awaitBreaker(id, "half-open");
        assertEquals(200, client.get("guarded.test", "/app").status());
        assertEquals("half-open", breaker(id).getString("state"), "one trial of two succeeded");
        assertEquals(200, client.get("guarded.test", "/app").status());
        JsonObject closedAgain = breaker(id);
        assertEquals("closed", closedAgain.getString("state"));
        assertEquals("2 trial requests succeeded", closedAgain.getString("reason"));
        for (int i = 0; i < 4; i++) {
            assertEquals(200, client.get("guarded.test", "/app").status());
        }
        assertEquals(13, originRequests());
    }

    @Test
    void whileItIsOpenTheCacheMayAnswerWithAStaleResponse() throws Exception {
        ScriptedOrigin origin = ScriptedOrigin.start()
                .on("/page", Reply.of(200, "cached page", "Cache-Control", "max-age=1, stale-if-error=60"))
                .on("/broken", Reply.of(500, "broken"));
        origins.add(origin);
        String id = Api.create(Api.vhost("stale", "stale.test", origin.url())
                .put("cache", Api.enabled())
                .put("circuitBreaker", new JsonObject().put("minRequests", 2).put("coolDown", "1h")));
        ProxyClient client = client();
        assertEquals("cached page", client.get("stale.test", "/page").text());
        assertEquals(500, client.get("stale.test", "/broken").status());
        assertEquals("open", breaker(id).getString("state"), "1 of 2 failed");
        Thread.sleep(1_100);

        ProxyClient.Reply stale = client.get("stale.test", "/page");
        assertEquals(200, stale.status());
        assertEquals("cached page", stale.text());
        assertNull(stale.header("Retry-After"));
        assertEquals("circuit_open", client.get("stale.test", "/other").json().getString("reason"));
        assertEquals(1, origin.count("/page"));
    }

    @Test
    void connectFailuresCountAndAVhostWithoutABreakerShowsNone() throws Exception {
        String refusing = "http://127.0.0.1:" + BrokenOrigins.refusingPort();
        String id = Api.create(Api.vhost("refusing", "refusing.test", refusing)
                .put("circuitBreaker", new JsonObject().put("minRequests", 3).put("coolDown", "1h")));
        ProxyClient client = client();
        for (int i = 0; i < 3; i++) {
            assertEquals(502, client.get("refusing.test", "/app").status());
        }
        JsonObject open = breaker(id);
        assertEquals("open", open.getString("state"));
        assertEquals("100% of 3 requests failed in 10s, open for 1h", open.getString("reason"));
        ProxyClient.Reply refused = client.get("refusing.test", "/app");
        assertEquals("circuit_open", refused.json().getString("reason"));
        assertEquals("3600", refused.header("Retry-After"));

        String plain = Api.create(Api.vhost("plain", "plain.test", refusing));
        assertNull(breaker(plain));
    }
}
