package dev.portico.control.api.analytics;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real traffic through the data plane ends up, rolled up per bucket (two seconds in the test profile), in
 * PostgreSQL, and the analytics API merges it back over a range.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class AnalyticsApiTest {

    private static final String CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
    private static final String REFERRER = "https://ref.example/page";

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
    }

    @Test
    void trafficIsStoredPerMinuteAndMergedOverARange() throws Exception {
        Instant start = Instant.now();
        String id;
        long bytesOut = 0;
        try (OriginServer origin = OriginServer.start("analytics");
             ProxyClient local = new ProxyClient(dataPlane.port());
             ProxyClient ipv6 = new ProxyClient(dataPlane.port(), "::1", null);
             ProxyClient trustedProxy = new ProxyClient(dataPlane.port(), "127.0.0.1", "127.0.0.2")) {
            id = Api.create(Api.vhost("analytics", "analytics.test", origin.url()));
            for (int i = 0; i < 15; i++) {
                ProxyClient.Reply reply = local.send(HttpMethod.GET, "analytics.test", "/a?page=" + i,
                        Map.of("User-Agent", "curl/8.0"), null);
                assertEquals(200, reply.status());
                bytesOut += reply.body().length();
            }
            for (int i = 0; i < 5; i++) {
                ProxyClient.Reply reply = trustedProxy.send(HttpMethod.POST, "analytics.test", "/a",
                        Map.of("User-Agent", "curl/8.0", "X-Forwarded-For", "203.0.113.7"), Buffer.buffer("payload"));
                assertEquals(200, reply.status());
                bytesOut += reply.body().length();
            }
            for (int i = 0; i < 10; i++) {
                ProxyClient.Reply reply = ipv6.send(HttpMethod.GET, "analytics.test", "/status/404",
                        Map.of("User-Agent", CHROME, "Referer", REFERRER), null);
                assertEquals(404, reply.status());
                bytesOut += reply.body().length();
            }
        }

        Eventually.within(Duration.ofSeconds(15), () -> assertEquals(30, sum("requests", id)));
        assertEquals(35, sum("bytes_in", id));
        assertEquals(bytesOut, sum("bytes_out", id));
        assertEquals(20, sum("status_2xx", id));
        assertEquals(10, sum("status_4xx", id));
        assertEquals(20, topCount("top_paths", id, "/a"));
        assertEquals(10, topCount("top_clients", id, "::1"));
        assertEquals(10, topCount("top_referrers", id, REFERRER));
        assertEquals(20, topCount("top_agents", id, "curl/8.0"));

        JsonPath body = Api.given().queryParam("from", start.minusSeconds(60).toString())
                .queryParam("to", Instant.now().plusSeconds(60).toString())
                .get("/api/v1/vhosts/" + id + "/analytics").then().statusCode(200).extract().jsonPath();
        assertEquals(id, body.getString("vhostId"));
        assertEquals("analytics", body.getString("vhostName"));
        assertEquals(30, body.getLong("requests"));
        assertEquals(35, body.getLong("bytesIn"));
        assertEquals(bytesOut, body.getLong("bytesOut"));
        assertEquals(Map.of("1xx", 0, "2xx", 20, "3xx", 0, "4xx", 10, "5xx", 0), body.getMap("status"));
        assertEquals(List.of(Map.of("key", "/a", "count", 20), Map.of("key", "/status/404", "count", 10)),
                body.getList("topPaths"));
        assertEquals(List.of(Map.of("key", "127.0.0.1", "count", 15), Map.of("key", "::1", "count", 10),
                Map.of("key", "203.0.113.7", "count", 5)), body.getList("topClients"));
        assertEquals(List.of(Map.of("key", "curl/8.0", "count", 20, "class", "tool"),
                Map.of("key", CHROME, "count", 10, "class", "browser")), body.getList("topAgents"));
        assertEquals(List.of(Map.of("key", REFERRER, "count", 10)), body.getList("topReferrers"));

        List<Map<String, Object>> series = body.getList("series");
        assertTrue(!series.isEmpty() && series.size() <= 30, "series: " + series);
        assertEquals(30, series.stream().mapToLong(m -> ((Number) m.get("requests")).longValue()).sum());
        assertEquals(bytesOut, series.stream().mapToLong(m -> ((Number) m.get("bytesOut")).longValue()).sum());
        assertEquals(10, series.stream().mapToLong(m -> ((Number) ((Map<?, ?>) m.get("status")).get("4xx"))
                .longValue()).sum());
        List<Instant> minutes = series.stream().map(m -> Instant.parse((String) m.get("minute"))).toList();
        assertEquals(minutes.stream().sorted().toList(), minutes, "oldest first");

        assertEquals(List.of(Map.of("key", "/a", "count", 20)), Api.given().queryParam("top", "1")
                .get("/api/v1/vhosts/" + id + "/analytics").then().statusCode(200).extract().jsonPath()
                .getList("topPaths"), "the default range is the last hour");
    }

    @Test
    void anEmptyRangeIsZeroNotAnError() {
        String id = Api.create(Api.vhost("quiet", "quiet.test", "http://127.0.0.1:9"));
        JsonPath body = Api.given().get("/api/v1/vhosts/" + id + "/analytics").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(0, body.getLong("requests"));
        assertEquals(List.of(), body.getList("topPaths"));
        assertEquals(List.of(), body.getList("series"));
        Instant from = Instant.parse(body.getString("from"));
        Instant to = Instant.parse(body.getString("to"));
        assertEquals(Duration.ofHours(1), Duration.between(from, to));
    }

    @Test
    void badParametersAreNamed() {
        String id = Api.create(Api.vhost("params", "params.test", "http://127.0.0.1:9"));
        String url = "/api/v1/vhosts/" + id + "/analytics";
        assertInvalid(Api.given().queryParam("from", "yesterday").get(url), "from");
        assertInvalid(Api.given().queryParam("to", "2024-13-01T00:00:00Z").get(url), "to");
        assertInvalid(Api.given().queryParam("top", "0").get(url), "top");
        assertInvalid(Api.given().queryParam("top", "101").get(url), "top");
        assertInvalid(Api.given().queryParam("top", "ten").get(url), "top");
        assertInvalid(Api.given().queryParam("from", "2024-05-01T13:00:00Z").queryParam("to", "2024-05-01T12:00:00Z")
                .get(url), "from");
        assertInvalid(Api.given().queryParam("from", Instant.now().minus(Duration.ofDays(8)).toString()).get(url),
                "from");
        assertInvalid(Api.given().queryParam("from", "x").queryParam("top", "-1").get(url), "from", "top");
        Api.given().queryParam("from", "2024-05-01T12:00:00+02:00").queryParam("to", "2024-05-01T11:00:00Z")
                .queryParam("top", "100").get(url).then().statusCode(200);
    }

    @Test
    void unknownVhostIsNotFoundAndTheTokenIsRequired() {
        assertProblem(Api.given().get("/api/v1/vhosts/" + UUID.randomUUID() + "/analytics"), 404, "not-found");
        assertProblem(Api.given().get("/api/v1/vhosts/not-a-uuid/analytics"), 404, "not-found");
        assertProblem(RestAssured.given().get("/api/v1/vhosts/" + UUID.randomUUID() + "/analytics"), 401,
                "unauthorized");
    }

    private long sum(String column, String id) {
        return query("select coalesce(sum(" + column + "), 0) from traffic_minute where vhost_id = ?::uuid", id,
                null);
    }

    /** The count of one key in a top list, summed over the vhost's stored minutes. */
    private long topCount(String column, String id, String key) {
        return query("select coalesce(sum((e->>'count')::bigint), 0) from traffic_minute t, "
                + "jsonb_array_elements(t." + column + ") e where t.vhost_id = ?::uuid and e->>'key' = ?", id, key);
    }

    private long query(String sql, String id, String key) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, id);
            if (key != null) {
                statement.setString(2, key);
            }
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
