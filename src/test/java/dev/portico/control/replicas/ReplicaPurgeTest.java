package dev.portico.control.replicas;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ScriptedOrigin;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Purges reach every replica sharing the database: a purge made through this instance's API is NOTIFYed on
 * {@code portico_cache_purge}, and one another replica NOTIFYs is applied here. The other replica is played by a
 * plain JDBC connection to the same PostgreSQL.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ReplicaPurgeTest extends CacheTestSupport {

    private static final String CHANNEL = "portico_cache_purge";

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aPurgeHereIsAnnouncedToTheOtherReplicas() throws Exception {
        origin.on("/img/a.png", ScriptedOrigin.Reply.of(200, "a", "Cache-Control", "max-age=60"));
        String id = cachedVhost("announce.test");
        assertCacheStatus(get("announce.test", "/img/a.png"), STORED);

        try (Connection otherReplica = dataSource.getConnection()) {
            try (Statement listen = otherReplica.createStatement()) {
                listen.execute("LISTEN " + CHANNEL);
            }
            try {
                announcedPurges(id, otherReplica);
            } finally {
                // The connection goes back to the application's pool: it must not keep collecting notifications.
                try (Statement unlisten = otherReplica.createStatement()) {
                    unlisten.execute("UNLISTEN *");
                }
            }
        }
        assertCacheStatus(get("announce.test", "/img/a.png"), STORED);
    }

    /** Three purges through the API, and what {@code otherReplica}, LISTENing, hears of them. */
    private void announcedPurges(String id, Connection otherReplica) throws Exception {
        JsonObject result = new JsonObject(Api.given().queryParam("prefix", "/img/")
                .delete(VHOSTS + "/" + id + "/cache").then().statusCode(200).extract().asString());
        assertEquals(new JsonObject().put("purged", 1).put("replicasNotified", true), result);

        List<JsonObject> received = receive(otherReplica, 1);
        JsonObject purge = received.get(0);
        assertEquals(id, purge.getString("vhost"));
        assertEquals("/img/", purge.getString("prefix"));
        assertEquals(null, purge.getString("path"));
        assertTrue(purge.getString("from").length() > 10, purge::encode);

        Api.given().queryParam("path", "/doc?x=1").delete(VHOSTS + "/" + id + "/cache").then().statusCode(200);
        Api.given().delete(VHOSTS + "/" + id + "/cache").then().statusCode(200);
        List<JsonObject> next = receive(otherReplica, 2);
        assertEquals("/doc?x=1", next.get(0).getString("path"));
        assertEquals(new JsonObject().put("from", purge.getString("from")).put("vhost", id), next.get(1));
    }

    @Test
    void aPurgeFromAnotherReplicaIsAppliedHere() throws Exception {
        origin.on("/doc", ScriptedOrigin.Reply.of(200, "doc", "Cache-Control", "max-age=60"))
                .on("/keep", ScriptedOrigin.Reply.of(200, "keep", "Cache-Control", "max-age=60"));
        String id = cachedVhost("applied.test");
        listenerHearsOtherReplicas(id);
        assertCacheStatus(get("applied.test", "/doc"), STORED);
        assertCacheStatus(get("applied.test", "/keep"), STORED);
        assertFromCache(get("applied.test", "/doc"), HIT_60);

        // A malformed notification is ignored without costing the listener its connection.
        notifyAsOtherReplica("{not json");
        notifyAsOtherReplica(new JsonObject().put("from", "replica-b").put("vhost", id).put("path", "/doc").encode());

        Eventually.within(Duration.ofSeconds(10), () -> {
            get("applied.test", "/doc");
            assertEquals(2, origin.count("/doc"), "the purge from the other replica has not arrived yet");
        });
        assertFromCache(get("applied.test", "/doc"), HIT_60);
        assertEquals(2, origin.count("/doc"));
        assertFromCache(get("applied.test", "/keep"), HIT_60);
        assertEquals(1, origin.count("/keep"));
    }

    @Test
    void aPurgeTargetTooLongToAnnounceIsAProblem() {
        String id = cachedVhost("long.test");
        String cache = VHOSTS + "/" + id + "/cache";
        // The API's request line (4 KiB) is the practical limit for plain text...
        Api.given().queryParam("path", "/" + "p".repeat(3900)).delete(cache).then().statusCode(200)
                .body("replicasNotified", is(true));
        // ...but PostgreSQL counts the payload's bytes after JSON escaping: 1330 control characters take 6 each.
        assertInvalid(Api.given().queryParam("prefix", "/" + "\u0001".repeat(1330)).delete(cache), "prefix");
    }

    /**
     * NOTIFY is not kept for a session that is not listening, and the listener may still be reconnecting after an
     * earlier test class cut the database: purge a throwaway path until the purge is seen to arrive.
     */
    private void listenerHearsOtherReplicas(String vhostId) {
        origin.on("/probe", ScriptedOrigin.Reply.of(200, "probe", "Cache-Control", "max-age=60"));
        assertCacheStatus(get("applied.test", "/probe"), STORED);
        Eventually.within(Duration.ofSeconds(30), () -> {
            try {
                notifyAsOtherReplica(new JsonObject().put("from", "replica-b").put("vhost", vhostId)
                        .put("path", "/probe").encode());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            get("applied.test", "/probe");
            assertTrue(origin.count("/probe") > 1, "the replica listener does not hear other replicas yet");
        });
    }

    private void notifyAsOtherReplica(String payload) throws Exception {
        try (Connection otherReplica = dataSource.getConnection();
             PreparedStatement notify = otherReplica.prepareStatement("select pg_notify(?, ?)")) {
            notify.setString(1, CHANNEL);
            notify.setString(2, payload);
            notify.execute();
        }
    }

    private static List<JsonObject> receive(Connection connection, int count) throws Exception {
        PGConnection pg = connection.unwrap(PGConnection.class);
        List<JsonObject> received = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (received.size() < count && System.nanoTime() < deadline) {
            PGNotification[] notifications = pg.getNotifications(500);
            if (notifications != null) {
                for (PGNotification notification : notifications) {
                    received.add(new JsonObject(notification.getParameter()));
                }
            }
        }
        assertEquals(count, received.size(), () -> "notifications received: " + received);
        return received;
    }
}
