package dev.portico.control.api.status;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static dev.portico.testing.Problems.VHOSTS;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/v1/status}: the served snapshot follows every committed change before the change's call returns. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StatusApiTest {

    private static final String STATUS = "/api/v1/status";

    @Inject
    DataPlaneServer dataPlane;

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    @Test
    void reportsAHealthyServingInstance() {
        Response status = Api.given().get(STATUS);

        status.then().statusCode(200)
                .header("Content-Type", startsWith("application/json"))
                .body("vhostCount", equalTo(0))
                .body("lastReloadError", nullValue())
                .body("lastReloadErrorAt", nullValue())
                .body("databaseReachable", is(true))
                .body("databaseError", nullValue())
                .body("dataPlaneListening", is(true))
                .body("dataPlanePort", equalTo(dataPlane.port()))
                .body("inFlightRequests", equalTo(0));
        Instant builtAt = Instant.parse(status.path("snapshotBuiltAt"));
        assertFalse(builtAt.isAfter(Instant.now()), "built in the future: " + builtAt);
    }

    @Test
    void everyChangeIsServedWhenItsCallReturns() {
        Snapshot start = snapshot();

        String id = Api.create(Api.vhost("shop", "shop.example.com", "http://10.0.0.5:8080"));
        Snapshot afterCreate = snapshot();
        Api.given().body(Api.vhost("shop", "www.example.com", "http://10.0.0.5:8080").encode())
                .put(VHOSTS + "/" + id).then().statusCode(200);
        Snapshot afterReplace = snapshot();
        Api.create(Api.vhost("blog", "blog.example.com", "http://10.0.0.6:8080"));
        Snapshot afterSecond = snapshot();
        Api.delete(id);
        Snapshot afterDelete = snapshot();

        assertIncreased(start, afterCreate, 1);
        assertIncreased(afterCreate, afterReplace, 1);
        assertIncreased(afterReplace, afterSecond, 2);
        assertIncreased(afterSecond, afterDelete, 1);
    }

    @Test
    void aRefusedChangeLeavesTheSnapshotAlone() {
        Api.create(Api.vhost("shop", "shop.example.com", "http://10.0.0.5:8080"));
        Snapshot before = snapshot();

        Api.given().body(Api.vhost("shop", "other.example.com", "http://10.0.0.5:8080").encode()).post(VHOSTS)
                .then().statusCode(409);
        Api.given().body(Api.vhost("bad name", "x.example.com", "http://10.0.0.5:8080").encode()).post(VHOSTS)
                .then().statusCode(400);

        Snapshot after = snapshot();
        assertEquals(before.version(), after.version());
        assertEquals(1, after.vhostCount());
    }

    private static void assertIncreased(Snapshot before, Snapshot after, int vhostCount) {
        assertTrue(after.version() > before.version(),
                "snapshot version " + after.version() + " after " + before.version());
        assertFalse(after.builtAt().isBefore(before.builtAt()), "built " + after.builtAt() + " before " + before.builtAt());
        assertEquals(vhostCount, after.vhostCount());
    }

    private static Snapshot snapshot() {
        Response status = Api.given().get(STATUS);
        status.then().statusCode(200).body("lastReloadError", nullValue()).body("dataPlaneListening", is(true));
        return new Snapshot(((Number) status.path("snapshotVersion")).longValue(),
                Instant.parse(status.path("snapshotBuiltAt")), status.path("vhostCount"));
    }

    private record Snapshot(long version, Instant builtAt, int vhostCount) {
    }
}
