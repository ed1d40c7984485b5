package dev.portico.control.database;

import dev.portico.testing.Api;
import dev.portico.testing.DatabaseLink;
import dev.portico.testing.LogCapture;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import static dev.portico.testing.Eventually.within;
import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 18: the first failed database operation marks the database unreachable for health, status and the API at
 * once; a purge then skips its NOTIFY at once; only the probe ends the outage; and the outage is two log lines.
 * The listener and the snapshot poll are off here, so that nothing but the operation under test can notice the
 * cut link (with them on, {@code DatabaseOutageTest} covers the same outage end to end).
 */
@QuarkusTest
@TestProfile(DatabaseReachabilityTest.OnlyOperationsNotice.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DatabaseReachabilityTest {

    /** In memory: no database round trip, no pool wait. Generous for a loaded 2-core machine. */
    private static final Duration AT_ONCE = Duration.ofMillis(1000);
    /** portico.database.probe-interval is 1 s; a probe through the pool, then the recovery itself. */
    private static final Duration PROBE = Duration.ofSeconds(6);

    public static class OnlyOperationsNotice implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.reload.listen", "false", "portico.reload.poll-interval", "1h");
        }
    }

    @PostgresResource.InjectLink
    DatabaseLink link;

    @TestHTTPResource(value = "/", management = true)
    URL management;

    private String cached;

    @BeforeEach
    void oneCachedVhost() {
        cached = Api.create(Api.vhost("reach", "reach.test", "http://127.0.0.1:9")
                .put("cache", Api.enabled("defaultTtl", "1m")));
    }

    @AfterEach
    void restore() {
        link.restore();
        within(PROBE, () -> databaseHealth().then().statusCode(200));
        Api.deleteAll();
    }

    @Test
    void aFailedWriteMarksTheDatabaseUnreachableForHealthStatusAndTheApiAtOnce() {
        link.cut();
        databaseHealth().then().statusCode(200); // nothing has met the cut link yet

        Response write = Api.given().body(Api.vhost("w", "w.test", "http://127.0.0.1:9").encode()).post(VHOSTS);

        assertProblem(write, 503, "database-unavailable");
        databaseHealth().then().statusCode(503).body("status", equalTo("DOWN"))
                .body("checks[0].data.reachable", is(false));
        Api.given().get("/api/v1/status").then().statusCode(200)
                .body("databaseReachable", is(false))
                .body("databaseError", notNullValue())
                .body("databaseUnreachableSince", notNullValue());
        long started = System.nanoTime();
        assertProblem(Api.given().get(VHOSTS), 503, "database-unavailable");
        assertProblem(Api.given().body(Api.vhost("w", "w.test", "http://127.0.0.1:9").encode()).post(VHOSTS), 503,
                "database-unavailable");
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(AT_ONCE) < 0, "two calls during a known outage took " + took);
    }

    @Test
    void aPurgeAnswersAtOnceOnceTheOutageIsKnownAndItsOwnFailedNotifyMakesItKnown() {
        link.cut();
        // The purge is the first operation to meet the cut link: its NOTIFY fails and marks the outage itself.
        purge().then().statusCode(200).body("replicasNotified", is(false));
        databaseHealth().then().statusCode(503);

        long started = System.nanoTime();
        purge().then().statusCode(200).body("replicasNotified", is(false));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertTrue(took.compareTo(AT_ONCE) < 0, "a purge during a known outage took " + took);
    }

    @Test
    void onlyTheProbeEndsTheOutageAndItIsTwoLinesInTheLog() throws Exception {
        try (LogCapture log = LogCapture.start()) {
            link.cut();
            assertProblem(Api.given().get(VHOSTS), 503, "database-unavailable");
            purge().then().statusCode(200);
            Thread.sleep(1500); // more than a probe interval: the probe keeps failing, the outage holds
            databaseHealth().then().statusCode(503);

            link.restore();

            within(PROBE, () -> databaseHealth().then().statusCode(200).body("status", equalTo("UP")));
            Api.given().get("/api/v1/status").then().body("databaseReachable", is(true))
                    .body("databaseError", nullValue()).body("databaseUnreachableSince", nullValue());
            Api.given().body(Api.vhost("after", "after.test", "http://127.0.0.1:9").encode()).post(VHOSTS)
                    .then().statusCode(201);

            List<LogCapture.Line> outage = log.lines(line -> line.level().intValue() >= Level.INFO.intValue()
                    && line.category().equals(DatabaseReachability.class.getName()));
            assertEquals(2, outage.size(), outage.toString());
            assertEquals(Level.WARNING.intValue(), outage.get(0).level().intValue(), outage.toString());
            assertTrue(outage.get(0).message().startsWith("Configuration database unreachable"), outage.toString());
            assertTrue(outage.get(1).message().matches("Configuration database reachable again after [0-9.]+ s .*"),
                    outage.toString());
            List<LogCapture.Line> others = log.lines(line -> line.level().intValue() >= Level.WARNING.intValue()
                    && !line.category().equals(DatabaseReachability.class.getName()));
            assertEquals(List.of(), others, "nothing else at WARN or above, no stack trace");
            assertEquals(List.of(), log.lines(line -> line.thrown() != null), "no stack trace at any level");
        }
    }

    private Response purge() {
        return Api.given().delete(VHOSTS + "/" + cached + "/cache");
    }

    private Response databaseHealth() {
        return RestAssured.given().baseUri(management.getProtocol() + "://" + management.getHost() + ":"
                + management.getPort()).get("/q/health/group/database");
    }
}
