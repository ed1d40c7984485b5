package dev.portico.control.snapshot;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A configuration that cannot be built never replaces the one being served. The API validates everything it stores,
 * so the bad row is written straight into PostgreSQL, as a hand edit or another Portico version would.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SnapshotRebuildFailureTest {

    private static final String BAD_ID = UUID.randomUUID().toString();

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void cleanUp() throws Exception {
        sql("delete from vhost where id = '" + BAD_ID + "'");
        bumpVersion();
        awaitStatus(() -> Api.given().get("/api/v1/status").path("lastReloadError") == null);
        Api.deleteAll();
    }

    @Test
    void aBrokenStoredVhostKeepsTheServedSnapshotAndIsReported() throws Exception {
        try (OriginServer origin = OriginServer.start("good"); ProxyClient client = new ProxyClient(dataPlane.port())) {
            Api.create(Api.vhost("good", "good.test", origin.url()));
            long served = ((Number) Api.given().get("/api/v1/status").path("snapshotVersion")).longValue();

            sql("insert into vhost (id, name, enabled, definition, version, created_at, updated_at) values ('"
                    + BAD_ID + "', 'broken', true, '{\"name\":\"broken\",\"hostnames\":[\"broken.test\"],"
                    + "\"enabled\":true,\"preserveHost\":true,\"upstreams\":[{\"url\":\"ftp://nowhere\",\"weight\":1}],"
                    + "\"connectTimeout\":\"5s\",\"readTimeout\":\"60s\",\"securityHeaders\":true}', 1, now(), now())");
            bumpVersion();

            awaitStatus(() -> Api.given().get("/api/v1/status").path("lastReloadError") != null);
            String error = Api.given().get("/api/v1/status").path("lastReloadError");
            assertTrue(error.contains("broken"), error);
            assertEquals(served, ((Number) Api.given().get("/api/v1/status").path("snapshotVersion")).longValue());
            assertEquals(true, Api.given().get("/api/v1/status").path("databaseReachable"));
            assertNotNull(Api.given().get("/api/v1/status").path("lastReloadErrorAt"));
            assertEquals(200, client.get("good.test", "/echo").status(), "the old snapshot keeps serving");
            assertEquals(404, client.get("broken.test", "/").status());

            sql("delete from vhost where id = '" + BAD_ID + "'");
            bumpVersion();
            awaitStatus(() -> Api.given().get("/api/v1/status").path("lastReloadError") == null);
            assertTrue(((Number) Api.given().get("/api/v1/status").path("snapshotVersion")).longValue() > served);
            assertNull(Api.given().get("/api/v1/status").path("lastReloadErrorAt"));
            assertEquals(200, client.get("good.test", "/echo").status());
        }
    }

    private void bumpVersion() throws Exception {
        sql("update config_state set version = version + 1 where id = 1");
    }

    private void sql(String statement) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement s = connection.createStatement()) {
            s.execute(statement);
        }
    }

    private static void awaitStatus(java.util.function.BooleanSupplier condition) {
        Eventually.within(Duration.ofSeconds(15), () -> assertTrue(condition.getAsBoolean(),
                () -> "status did not change in time: " + Api.given().get("/api/v1/status").asString()));
    }
}
