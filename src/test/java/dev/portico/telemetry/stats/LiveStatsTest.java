package dev.portico.telemetry.stats;

import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live statistics and the Prometheus series add up exactly to a known load. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LiveStatsTest {

    @Inject
    DataPlaneServer dataPlane;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
    }

    /** Polls /api/v1/stats until an interval satisfies the condition (the aggregator runs once a second). */
    private static JsonObject awaitStats(Predicate<JsonObject> condition) {
        return Eventually.value(Duration.ofSeconds(10),
                () -> new JsonObject(Api.given().get("/api/v1/stats").then().statusCode(200).extract().asString()),
                condition);
    }

    private static JsonObject vhost(JsonObject stats, String name) {
        return stats.getJsonArray("vhosts").stream().map(JsonObject.class::cast)
                .filter(v -> v.getString("vhost").equals(name)).findFirst().orElse(new JsonObject());
    }

    @Test
    void countsMatchAKnownLoadExactly() throws Exception {
        try (OriginServer origin = OriginServer.start("counted");
             ProxyClient client = new ProxyClient(dataPlane.port())) {
            Api.create(Api.vhost("counted", "counted.test", origin.url()));
            // Requests other tests finished just now may not be counted yet: take "before" from an interval that
            // began after this point (the aggregator publishes one a second, numbered by "sequence").
            long now = awaitStats(s -> true).getLong("sequence");
            JsonObject before = awaitStats(s -> s.getLong("sequence") >= now + 2);
            long unmatchedBefore = vhost(before, StatsRegistry.UNMATCHED).getLong("requests", 0L);
            long notFoundBefore = vhost(before, StatsRegistry.UNMATCHED).getJsonObject("reasons", new JsonObject())
                    .getLong("vhost_not_found", 0L);

            for (int i = 0; i < 30; i++) {
                assertEquals(200, client.get("counted.test", "/bytes/1000").status());
            }
            for (int i = 0; i < 10; i++) {
                assertEquals(404, client.get("counted.test", "/status/404").status());
            }
            for (int i = 0; i < 10; i++) {
                assertEquals(201, client.send(HttpMethod.POST, "counted.test", "/status/201", Map.of(),
                        Buffer.buffer(new byte[500])).status());
            }
            for (int i = 0; i < 3; i++) {
                assertEquals(404, client.get("unknown.counted.test", "/").status());
            }

            JsonObject stats = awaitStats(s -> vhost(s, "counted").getLong("requests", 0L) == 50
                    && vhost(s, StatsRegistry.UNMATCHED).getLong("requests", 0L) == unmatchedBefore + 3);
            JsonObject counted = vhost(stats, "counted");
            assertEquals(40, counted.getJsonObject("status").getLong("2xx"));
            assertEquals(10, counted.getJsonObject("status").getLong("4xx"));
            assertEquals(0, counted.getJsonObject("status").getLong("5xx"));
            assertEquals(0, counted.getLong("inFlight"));
            assertEquals(10 * 500, counted.getLong("bytesIn"));
            assertEquals(30 * 1000, counted.getLong("bytesOut"));
            assertEquals(notFoundBefore + 3, vhost(stats, StatsRegistry.UNMATCHED).getJsonObject("reasons")
                    .getLong("vhost_not_found"));

            String scrape = RestAssured.given().get(metrics).then().statusCode(200).extract().asString();
            assertEquals(50, sample(scrape, "portico_request_duration_seconds_count{vhost=\"counted\"}"));
            assertEquals(50, sample(scrape, "portico_request_duration_seconds_bucket{vhost=\"counted\",le=\"+Inf\"}"));
            assertEquals(50, sample(scrape, "portico_upstream_duration_seconds_count{vhost=\"counted\"}"));
            assertEquals(5000, sample(scrape, "portico_bytes_received_total{vhost=\"counted\"}"));
            assertEquals(30000, sample(scrape, "portico_bytes_sent_total{vhost=\"counted\"}"));
            assertTrue(sample(scrape, "portico_request_duration_seconds_bucket{vhost=\"counted\",le=\"60.0\"}") == 50);
        }
    }

    @Test
    void reportsLatencyPercentilesOfTheLastInterval() throws Exception {
        try (OriginServer origin = OriginServer.start("slowish");
             ProxyClient client = new ProxyClient(dataPlane.port())) {
            Api.create(Api.vhost("slowish", "slowish.test", origin.url()));
            for (int i = 0; i < 5; i++) {
                client.get("slowish.test", "/slow/120");
            }
            JsonObject stats = awaitStats(s -> vhost(s, "slowish").getJsonObject("latencyMs", new JsonObject())
                    .getDouble("p50") != null);
            JsonObject latency = vhost(stats, "slowish").getJsonObject("latencyMs");
            assertTrue(latency.getDouble("p50") >= 120, latency.encode());
            assertTrue(latency.getDouble("max") >= latency.getDouble("p99"), latency.encode());
            JsonObject upstream = vhost(stats, "slowish").getJsonObject("upstreamLatencyMs");
            assertTrue(upstream.getDouble("p50") >= 120, upstream.encode());
        }
    }

    private static double sample(String text, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.eE+-]+)$", Pattern.MULTILINE).matcher(text);
        if (!m.find()) {
            throw new AssertionError("no series " + series);
        }
        return Double.parseDouble(m.group(1));
    }
}
