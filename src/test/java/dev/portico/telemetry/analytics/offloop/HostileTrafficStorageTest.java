package dev.portico.telemetry.analytics.offloop;

import dev.portico.control.store.TrafficStore;
import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.telemetry.Drops;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11 item 13: a request whose path holds a NUL byte must not stop analytics storage. PostgreSQL refuses NUL in
 * text and {@code \u0000} in jsonb; before the fix the whole minute (every vhost's row) was refused, retried
 * oldest-first, and every later minute waited behind it.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class HostileTrafficStorageTest {

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    TrafficStore store;

    /** The application's drop counts: what /api/v1/stats shows. */
    @Inject
    Drops appDrops;

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
    }

    @Test
    void aNulInAPathNeverReachesStorageAndTheOtherVhostsMinuteIsStored() throws Exception {
        try (OriginServer origin = OriginServer.start("hostile");
             ProxyClient client = new ProxyClient(dataPlane.port())) {
            String bad = Api.create(Api.vhost("bad", "bad.test", origin.url()));
            String good = Api.create(Api.vhost("good", "good.test", origin.url()));

            // The strict reader refuses a raw NUL in the target (issue 11, item 2): it never reaches a vhost.
            String raw = RawHttp.exchange(dataPlane.port(), "GET /a\u0000b HTTP/1.1\r\nHost: bad.test\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals(400, RawHttp.status(raw), raw);
            String escaped = RawHttp.exchange(dataPlane.port(), "GET /c%00d HTTP/1.1\r\nHost: bad.test\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals(200, RawHttp.status(escaped), escaped);
            assertEquals(200, client.get("good.test", "/echo").status());

            Eventually.within(Duration.ofSeconds(15), () -> {
                assertEquals(1, requests(good), "the other vhost's minute is stored");
                assertEquals(1, requests(bad), "the bad vhost's minute is stored, with its one routed request");
            });
            List<String> paths = topKeys(bad, "top_paths");
            assertEquals(List.of("/c%00d"), paths, "an escaped NUL is kept as it is");
            List<String> shown = Api.given().get("/api/v1/vhosts/" + bad + "/analytics").then().statusCode(200)
                    .extract().jsonPath().getList("topPaths.key");
            assertTrue(shown.contains("/c%00d"), "the API shows the stored key: " + shown);
        }
    }

    @Test
    void aBucketThePostgresRefusesIsDroppedAndCountedWhileTheOthersAreStored() throws Exception {
        UUID bad = UUID.fromString(Api.create(Api.vhost("refused", "refused.test", "http://127.0.0.1:9")));
        UUID good = UUID.fromString(Api.create(Api.vhost("stored", "stored.test", "http://127.0.0.1:9")));
        Instant first = Instant.now().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MINUTES);
        Instant second = first.plusSeconds(60);
        // The application's counts, so that the API shows them; the application's own writer refuses nothing here.
        PendingMinutes pending = new PendingMinutes(10, 20, appDrops);
        TrafficWriter writer = new TrafficWriter(store::save, pending, appDrops);
        long refusedBefore = appDrops.count(Drops.Kind.ANALYTICS_REFUSED);

        // Straight to the writer, past the keys' sanitising: PostgreSQL itself refuses this bucket (\u0000 in jsonb).
        pending.add(List.of(minute(bad, first, 7, "/a\u0000b"), minute(good, first, 3, "/ok")));
        pending.add(List.of(minute(bad, second, 2, "/later")));
        writer.writePending();

        assertEquals(0, pending.size(), "nothing is left to retry");
        assertEquals(3, requests(good.toString()), "the other vhost's bucket of the same minute is stored");
        assertEquals(2, requests(bad.toString()), "the vhost's next minute is stored");
        assertEquals(7, appDrops.count(Drops.Kind.ANALYTICS_REFUSED) - refusedBefore, "the refused bucket's requests are counted");
        Eventually.within(Duration.ofSeconds(5), () -> assertTrue(Api.given().get("/api/v1/stats").then()
                .statusCode(200).extract().jsonPath().getLong("dropped.analytics_refused") >= refusedBefore + 7,
                "shown with the other drops"));
    }

    @Test
    void aStoredRowThatCannotBeMergedCostsOnlyItsOwnVhost() throws Exception {
        UUID bad = UUID.fromString(Api.create(Api.vhost("unreadable", "unreadable.test", "http://127.0.0.1:9")));
        UUID good = UUID.fromString(Api.create(Api.vhost("readable", "readable.test", "http://127.0.0.1:9")));
        Instant minute = Instant.now().minus(Duration.ofMinutes(20)).truncatedTo(ChronoUnit.MINUTES);
        try (Connection connection = dataSource.getConnection();
             PreparedStatement s = connection.prepareStatement("insert into traffic_minute (vhost_id, minute, "
                     + "requests, bytes_in, bytes_out, status_1xx, status_2xx, status_3xx, status_4xx, status_5xx, "
                     + "top_paths, top_clients, top_agents, top_referrers) values (?, ?, 1, 0, 0, 0, 1, 0, 0, 0, "
                     + "'{\"not\": \"a list\"}', '[]', '[]', '[]')")) {
            s.setObject(1, bad);
            s.setObject(2, java.sql.Timestamp.from(minute));
            s.executeUpdate();
        }
        Drops drops = new Drops();
        PendingMinutes pending = new PendingMinutes(10, 20, drops);
        TrafficWriter writer = new TrafficWriter(store::save, pending, drops);

        pending.add(List.of(minute(bad, minute, 4, "/x"), minute(good, minute, 5, "/y")));
        writer.writePending();

        assertEquals(0, pending.size());
        assertEquals(5, requests(good.toString()));
        assertEquals(1, requests(bad.toString()), "the stored row is left as it was");
        assertEquals(4, drops.count(Drops.Kind.ANALYTICS_REFUSED));
    }

    private static TrafficMinute minute(UUID vhost, Instant minute, long requests, String path) {
        return new TrafficMinute(vhost, minute, new TrafficCounts(requests, 0, 0, 0, requests, 0, 0, 0),
                List.of(new TopItem(path, requests)), List.of(new TopItem("127.0.0.1", requests)),
                List.of(new TopItem("curl/8.0", requests, "tool")), List.of());
    }

    private long requests(String vhostId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement s = connection.prepareStatement(
                     "select coalesce(sum(requests), 0) from traffic_minute where vhost_id = cast(? as uuid)")) {
            s.setString(1, vhostId);
            try (ResultSet result = s.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private List<String> topKeys(String vhostId, String column) throws Exception {
        List<String> keys = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement s = connection.prepareStatement(
                     "select " + column + "::text from traffic_minute where vhost_id = cast(? as uuid)")) {
            s.setString(1, vhostId);
            try (ResultSet result = s.executeQuery()) {
                while (result.next()) {
                    JsonArray list = new JsonArray(result.getString(1));
                    for (int i = 0; i < list.size(); i++) {
                        keys.add(list.getJsonObject(i).getString("key"));
                    }
                }
            }
        }
        return keys;
    }
}
