package dev.portico.control.health;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.DatabaseLink;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;

import static dev.portico.testing.Eventually.within;
import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL unreachable on the network (the {@link DatabaseLink} relay cut, the server still running): the API
 * says 503 quickly, the data plane keeps serving its snapshot, health tells the two apart, and everything recovers
 * by itself once the network is back.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DatabaseOutageTest {

    /** The pool waits 3 s for a connection (quarkus.datasource.jdbc.acquisition-timeout). */
    private static final Duration QUICK_ANSWER = Duration.ofSeconds(8);
    private static final Duration RECOVERY = Duration.ofSeconds(15);

    @PostgresResource.InjectLink
    DatabaseLink link;

    @Inject
    DataPlaneServer dataPlane;

    @TestHTTPResource(value = "/", management = true)
    URL management;

    private OriginServer origin;
    private ProxyClient client;

    @BeforeEach
    void serveOneVhost() {
        assertNotNull(link, "PostgresResource did not inject the DatabaseLink");
        origin = OriginServer.start("outage-origin");
        client = new ProxyClient(dataPlane.port());
        Api.create(Api.vhost("outage", "outage.test", origin.url()));
        assertEquals(200, client.get("outage.test", "/echo").status());
    }

    @AfterEach
    void restoreTheDatabase() {
        // Always, even when an assertion failed mid-outage: the other test classes share this database.
        if (link != null) {
            link.restore();
        }
        try {
            within(RECOVERY, () -> Api.given().get(VHOSTS).then().statusCode(200));
            Api.deleteAll();
        } finally {
            if (client != null) {
                client.close();
            }
            if (origin != null) {
                origin.close();
            }
        }
    }

    @Test
    void theApiAnswers503WithRetryAfterQuicklyForReadsAndWrites() {
        link.cut();

        long started = System.nanoTime();
        Response list = Api.given().get(VHOSTS);
        Response create = Api.given().body(Api.vhost("during", "during.test", origin.url()).encode()).post(VHOSTS);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertProblem(list, 503, "database-unavailable").header("Retry-After", matchesPattern("[1-9][0-9]*"));
        assertProblem(create, 503, "database-unavailable").header("Retry-After", matchesPattern("[1-9][0-9]*"));
        assertTrue(took.compareTo(QUICK_ANSWER.multipliedBy(2)) < 0, "two calls took " + took);
        link.restore();
        within(RECOVERY, () -> Api.given().get(VHOSTS).then().statusCode(200).body("name", contains("outage")));
    }

    @Test
    void theDataPlaneKeepsServingAndStatusAndHealthReportTheOutage() {
        link.cut();

        within(QUICK_ANSWER, () -> Api.given().get("/api/v1/status").then().statusCode(200)
                .body("databaseReachable", is(false))
                .body("databaseError", notNullValue()));

        ProxyClient.Reply proxied = client.get("outage.test", "/echo?during=outage");
        assertEquals(200, proxied.status());
        assertEquals("outage-origin", proxied.header("X-Origin"));
        Api.given().get("/api/v1/status").then().statusCode(200)
                .body("vhostCount", equalTo(1))
                .body("dataPlaneListening", is(true));
        RestAssured.given().baseUri(origin(management)).get("/q/health/ready").then()
                .statusCode(200).body("status", equalTo("UP"));
        RestAssured.given().baseUri(origin(management)).get("/q/health/group/database").then()
                .statusCode(503).body("status", equalTo("DOWN"));
    }

    @Test
    void aPurgeStillEmptiesThisInstancesCacheAndSaysTheReplicasWereNotTold() {
        String id = Api.create(Api.vhost("outage-cache", "outage-cache.test", origin.url())
                .put("cache", Api.enabled("defaultTtl", "1m")));
        assertEquals(200, client.get("outage-cache.test", "/echo?cached").status());
        String hit = client.get("outage-cache.test", "/echo?cached").header("Cache-Status");
        assertTrue(hit.startsWith("Portico; hit"), hit);
        link.cut();

        long started = System.nanoTime();
        Api.given().delete(VHOSTS + "/" + id + "/cache").then().statusCode(200)
                .body("purged", equalTo(1))
                .body("replicasNotified", is(false));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(took.compareTo(QUICK_ANSWER) < 0, "the purge took " + took);
        String miss = client.get("outage-cache.test", "/echo?cached").header("Cache-Status");
        assertTrue(miss.contains("fwd=miss"), miss);
    }

    @Test
    void theApiRecoversByItselfAndNewVhostsAreProxied() {
        link.cut();
        within(QUICK_ANSWER, () -> Api.given().get("/api/v1/status").then().body("databaseReachable", is(false)));

        link.restore();

        within(RECOVERY, () -> Api.given().get(VHOSTS).then().statusCode(200));
        Api.given().body(Api.vhost("after", "after.test", origin.url()).encode()).post(VHOSTS).then().statusCode(201);
        ProxyClient.Reply proxied = client.get("after.test", "/echo");
        assertEquals(200, proxied.status());
        assertEquals("outage-origin", proxied.header("X-Origin"));
        within(RECOVERY, () -> Api.given().get("/api/v1/status").then().body("databaseReachable", is(true)));
        RestAssured.given().baseUri(origin(management)).get("/q/health/group/database").then()
                .statusCode(200).body("status", equalTo("UP"));
    }

    private static String origin(URL url) {
        return url.getProtocol() + "://" + url.getHost() + ":" + url.getPort();
    }
}
