package dev.portico.control.api.upstream;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.Problems;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.SseEvents;
import dev.portico.testing.TestVertx;
import dev.portico.testing.UpstreamStates;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The API side of upstream health: {@code healthCheck} and {@code outlierDetection} validated field by field and shown
 * normalised, {@code GET /api/v1/vhosts/{id}/upstreams}, the {@code upstream} events of the stats stream and the
 * {@code portico_upstream_*} metrics.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamsApiTest extends DataPlaneTestSupport {

    @TestHTTPResource("/")
    URL api;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private HttpClient streamClient;
    private ScriptedOrigin origin;

    @AfterEach
    void closeClients() {
        if (streamClient != null) {
            streamClient.close();
        }
        if (origin != null) {
            origin.close();
        }
    }

    private static Response post(JsonObject vhost) {
        return Api.given().body(vhost.encode()).post(Problems.VHOSTS);
    }

    @Test
    void everyInvalidFieldIsNamed() {
        JsonObject check = new JsonObject().put("type", "http").put("path", "healthz").put("method", "POST")
                .put("expectStatus", new JsonArray().add("200").add("299-200").add("6xx")).put("expectBody", "")
                .put("host", "bad host").put("interval", "10ms").put("timeout", "2x").put("rise", 0)
                .put("fall", 101).put("jitter", "10s");
        JsonObject outliers = new JsonObject().put("consecutive5xx", -1).put("consecutiveGatewayErrors", 1001)
                .put("baseEjectionTime", "10s").put("maxEjectionTime", "5s").put("maxEjectedPercent", 101);
        Response response = post(Api.vhost("bad-health", "bad-health.test", "http://127.0.0.1:1")
                .put("healthCheck", check).put("outlierDetection", outliers));
        Problems.assertInvalid(response, "healthCheck.path", "healthCheck.method", "healthCheck.expectStatus[1]",
                "healthCheck.expectStatus[2]", "healthCheck.expectBody", "healthCheck.host", "healthCheck.interval",
                "healthCheck.timeout", "healthCheck.rise", "healthCheck.fall", "outlierDetection.consecutive5xx",
                "outlierDetection.consecutiveGatewayErrors", "outlierDetection.maxEjectionTime",
                "outlierDetection.maxEjectedPercent");
        assertEquals(14, Problems.errors(response).size(), response.asString());

        Response tcp = post(Api.vhost("bad-tcp", "bad-tcp.test", "http://127.0.0.1:1")
                .put("healthCheck", new JsonObject().put("type", "tcp").put("path", "/").put("jitter", "6s"))
                .put("outlierDetection", new JsonObject().put("enabled", "yes")));
        Problems.assertInvalid(tcp, "healthCheck.path", "healthCheck.jitter", "outlierDetection.enabled");
        Problems.assertNoVhosts();
    }

    @Test
    void theViewShowsNormalisedValues() {
        String id = Api.create(Api.vhost("shown", "shown.test", "http://127.0.0.1:1")
                .put("healthCheck", new JsonObject().put("path", "/healthz").put("interval", "2000ms")
                        .put("expectStatus", new JsonArray().add("2XX").add("301").add("302-308")))
                .put("outlierDetection", new JsonObject().put("baseEjectionTime", "60s")));
        JsonObject view = new JsonObject(Api.given().get(Problems.VHOSTS + "/" + id).then().statusCode(200)
                .extract().asString());
        assertEquals(new JsonObject().put("type", "http").put("path", "/healthz").put("method", "GET")
                        .put("expectStatus", new JsonArray().add("200-299").add("301").add("302-308"))
                        .put("interval", "2s").put("timeout", "2s").put("rise", 2).put("fall", 3).put("jitter", "200ms"),
                view.getJsonObject("healthCheck"));
        assertEquals(new JsonObject().put("enabled", true).put("consecutive5xx", 5).put("consecutiveGatewayErrors", 5)
                        .put("baseEjectionTime", "1m").put("maxEjectionTime", "5m").put("maxEjectedPercent", 50)
                        .put("failureRatio", 0.0).put("failureRatioMinRequests", 50).put("failureRatioWindow", "10s"),
                view.getJsonObject("outlierDetection"));
        assertNull(view.getValue("circuitBreaker"));

        JsonObject plain = new JsonObject(Api.given().get(Problems.VHOSTS + "/"
                + Api.create(Api.vhost("plain", "plain.test", "http://127.0.0.1:1"))).then().statusCode(200)
                .extract().asString());
        assertNull(plain.getValue("healthCheck"));
        assertEquals(50, plain.getJsonObject("outlierDetection").getInteger("maxEjectedPercent"));
    }

    @Test
    void failureRatioAndCircuitBreakerFieldsAreNamedAndShownNormalised() {
        Response bad = post(Api.vhost("bad-ratio", "bad-ratio.test", "http://127.0.0.1:1")
                .put("outlierDetection", new JsonObject().put("failureRatio", 1.5).put("failureRatioMinRequests", 0)
                        .put("failureRatioWindow", "1h"))
                .put("circuitBreaker", new JsonObject().put("failureRatio", 0).put("minRequests", 100_001)
                        .put("window", "0s").put("coolDown", "2h").put("halfOpenRequests", 101)));
        Problems.assertInvalid(bad, "outlierDetection.failureRatio", "outlierDetection.failureRatioMinRequests",
                "outlierDetection.failureRatioWindow", "circuitBreaker.failureRatio", "circuitBreaker.minRequests",
                "circuitBreaker.window", "circuitBreaker.coolDown", "circuitBreaker.halfOpenRequests");
        assertEquals(8, Problems.errors(bad).size(), bad.asString());
        Response wrongType = post(Api.vhost("bad-type", "bad-type.test", "http://127.0.0.1:1")
                .put("circuitBreaker", new JsonObject().put("failureRatio", "half")));
        Problems.assertInvalid(wrongType, "circuitBreaker.failureRatio");
        Response noUpstreams = post(new JsonObject().put("name", "files").put("hostnames", new JsonArray()
                .add("files.test")).put("static", new JsonObject().put("root", "/tmp"))
                .put("circuitBreaker", new JsonObject()));
        Problems.assertInvalid(noUpstreams, "circuitBreaker");
        Problems.assertNoVhosts();

        String id = Api.create(Api.vhost("guarded", "guarded.test", "http://127.0.0.1:1")
                .put("outlierDetection", new JsonObject().put("failureRatio", 0.25).put("failureRatioWindow", "30000ms"))
                .put("circuitBreaker", new JsonObject().put("coolDown", "60s")));
        JsonObject view = new JsonObject(Api.given().get(Problems.VHOSTS + "/" + id).then().statusCode(200)
                .extract().asString());
        JsonObject outliers = view.getJsonObject("outlierDetection");
        assertEquals(0.25, outliers.getDouble("failureRatio"));
        assertEquals(50, outliers.getInteger("failureRatioMinRequests"));
        assertEquals("30s", outliers.getString("failureRatioWindow"));
        assertEquals(new JsonObject().put("failureRatio", 0.5).put("minRequests", 20).put("window", "10s")
                .put("coolDown", "1m").put("halfOpenRequests", 3), view.getJsonObject("circuitBreaker"));
    }

    @Test
    void aBackupStandsByWhileAPrimaryServesAndServesWhenNoneCan() {
        AtomicInteger primaryHealth = new AtomicInteger(200);
        origin = ScriptedOrigin.start().on("/healthz", request -> Reply.of(primaryHealth.get(), ""))
                .on("/app", Reply.of(200, "primary"));
        ScriptedOrigin backup = ScriptedOrigin.start().on("/healthz", Reply.of(200, "")).on("/app", Reply.of(200, "backup"));
        try {
            JsonObject definition = Api.vhost("standby", "standby.test", origin.url())
                    .put("healthCheck", new JsonObject().put("path", "/healthz").put("interval", "100ms")
                            .put("rise", 1).put("fall", 1));
            definition.getJsonArray("upstreams").add(new JsonObject().put("url", backup.url()).put("backup", true));
            String id = Api.create(definition);
            JsonObject standing = UpstreamStates.await(id, 1, "backup-standby");
            assertTrue(standing.getString("reason").endsWith("a backup, standing by while a primary takes the traffic"),
                    standing::encode);
            assertEquals("healthy", UpstreamStates.upstream(id, 0).getString("state"));
            assertEquals("primary", client().get("standby.test", "/app").text());
            String labels = "{vhost=\"standby\",upstream=\"" + backup.url() + "\",state=\"%s\"}";
            Eventually.within(Duration.ofSeconds(5), () -> {
                Scrape scrape = Scrape.of(metrics);
                assertEquals(1, scrape.value("portico_upstream_state" + labels.formatted("backup-standby")));
                assertEquals(0, scrape.value("portico_upstream_state" + labels.formatted("healthy")));
            });

            primaryHealth.set(503);
            UpstreamStates.await(id, 0, "unhealthy");
            JsonObject serving = UpstreamStates.await(id, 1, "healthy");
            assertEquals("no primary is available: this backup takes the traffic", serving.getString("reason"));
            assertEquals("backup", client().get("standby.test", "/app").text());

            primaryHealth.set(200);
            JsonObject back = UpstreamStates.await(id, 1, "backup-standby");
            assertEquals("a backup, standing by while a primary takes the traffic", back.getString("reason"));
            assertEquals("primary", client().get("standby.test", "/app").text());
        } finally {
            backup.close();
        }
    }

    @Test
    void theUpstreamsEndpointNeedsTheTokenAndAServedVhost() {
        String id = Api.create(Api.vhost("listed", "listed.test", "http://127.0.0.1:1", "http://127.0.0.1:2"));
        JsonArray upstreams = UpstreamStates.of(id);
        assertEquals(2, upstreams.size());
        JsonObject first = upstreams.getJsonObject(0);
        assertEquals("http://127.0.0.1:1", first.getString("url"));
        assertEquals("healthy", first.getString("state"));
        assertEquals("added (no active health check)", first.getString("reason"));
        assertNotNull(first.getString("since"));
        assertEquals(0, first.getLong("requests"));

        RestAssured.given().get(Problems.VHOSTS + "/" + id + "/upstreams").then().statusCode(401);
        Problems.assertProblem(Api.given().get(Problems.VHOSTS + "/" + UUID.randomUUID() + "/upstreams"), 404,
                "not-found");
    }

    @Test
    void aTransitionIsAnEventAndAMetric() throws Exception {
        AtomicInteger status = new AtomicInteger(200);
        origin = ScriptedOrigin.start().on("/healthz", request -> Reply.of(status.get(), ""))
                .on("/app", Reply.of(200, "app"));
        String id = Api.create(Api.vhost("watched", "watched.test", origin.url()).put("healthCheck",
                new JsonObject().put("path", "/healthz").put("interval", "100ms").put("fall", 2)));
        UpstreamStates.await(id, 0, "healthy");
        assertEquals(200, client().get("watched.test", "/app").status());
        streamClient = TestVertx.get().createHttpClient();
        BlockingQueue<SseEvents.Event> events = SseEvents.open(streamClient, api, "/api/v1/stats/stream?vhost=watched");

        status.set(500);
        SseEvents.Event event;
        do {
            event = events.poll(10, TimeUnit.SECONDS);
            assertNotNull(event, "no upstream event within 10 s");
        } while (!"upstream".equals(event.name()));
        JsonObject data = new JsonObject(event.data());
        assertEquals("watched", data.getString("vhost"));
        assertEquals(origin.url(), data.getString("upstream"));
        assertEquals("healthy", data.getString("from"));
        assertEquals("unhealthy", data.getString("to"));
        assertEquals("2 consecutive 500 from /healthz", data.getString("reason"));

        String labels = "{vhost=\"watched\",upstream=\"" + origin.url() + "\",state=\"%s\"}";
        Eventually.within(Duration.ofSeconds(5), () -> {
            Scrape scrape = Scrape.of(metrics);
            assertEquals(1, scrape.value("portico_upstream_state" + labels.formatted("unhealthy")));
            assertEquals(0, scrape.value("portico_upstream_state" + labels.formatted("healthy")));
            assertEquals(1, scrape.value("portico_upstream_requests_total{vhost=\"watched\",upstream=\""
                    + origin.url() + "\"}"));
        });
    }
}
