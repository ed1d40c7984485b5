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
                        .put("baseEjectionTime", "1m").put("maxEjectionTime", "5m").put("maxEjectedPercent", 50),
                view.getJsonObject("outlierDetection"));

        JsonObject plain = new JsonObject(Api.given().get(Problems.VHOSTS + "/"
                + Api.create(Api.vhost("plain", "plain.test", "http://127.0.0.1:1"))).then().statusCode(200)
                .extract().asString());
        assertNull(plain.getValue("healthCheck"));
        assertEquals(50, plain.getJsonObject("outlierDetection").getInteger("maxEjectedPercent"));
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
