package dev.portico.proxy.server.tls;

import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretKeySource;
import dev.portico.control.tickets.TicketKeyRotation;
import dev.portico.control.tickets.TicketKeyStore;
import dev.portico.proxy.route.SessionTicketKeys;
import dev.portico.proxy.route.TlsTable;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Session ticket keys from PostgreSQL: the rotation creates the current and the next period's key once for every
 * replica, the routing snapshot carries {@code [current, next, previous]}, the data plane's own listener encrypts
 * with the stored key, and a ticket outlives one rotation but not two. Instants are far from now (the default 12 h
 * rotation), so the scheduled check, which follows the real clock, leaves them alone.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TicketKeyRotationTest extends TlsListenerTestSupport {

    private static final String HOST = "rotate.test";
    private static final Duration ROTATION = Duration.ofHours(12);
    private static final Instant START = Instant.parse("2100-01-01T00:00:00Z");

    @Inject
    TicketKeyRotation rotation;
    @Inject
    TicketKeyStore store;
    @Inject
    SecretKeySource secrets;
    @Inject
    EntityManager entityManager;

    @AfterEach
    void backToTheClock() {
        QuarkusTransaction.requiringNew().run(() -> entityManager
                .createNativeQuery("delete from tls_ticket_key where period >= :first")
                .setParameter("first", rotation.periodOf(START) - 1).executeUpdate());
        rotation.rotate(Instant.now());
        Api.deleteAll();
        List<String> ids = Api.given().get("/api/v1/certificates").then().extract().path("id");
        ids.forEach(id -> Api.given().delete("/api/v1/certificates/" + id).then().statusCode(204));
    }

    private List<Long> storedPeriods() {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<?> periods = entityManager.createNativeQuery("select period from tls_ticket_key order by period")
                    .getResultList();
            return periods.stream().map(period -> ((Number) period).longValue()).toList();
        });
    }

    private SessionTicketKeys snapshotKeys() {
        return snapshots.current().tls().ticketKeys();
    }

    @Test
    void theRotationStoresTheCurrentAndNextKeysWhichEveryReplicaReads() {
        long period = rotation.periodOf(START);

        rotation.rotate(START);

        assertEquals(List.of(period, period + 1), storedPeriods());
        assertEquals(List.of(period, period + 1), snapshotKeys().periods(), "the current key encrypts");
        assertEquals(snapshotKeys(), store.keysFor(period, secrets.require()),
                "another replica creating the same periods reads the keys the first one stored");
    }

    @Test
    void aKeySealedByAnotherSecretKeyIsReplacedRatherThanLeftUnreadable() {
        long period = rotation.periodOf(START);
        rotation.rotate(START);
        SessionTicketKeys stored = snapshotKeys();
        // A secret key replaced while no certificate was stored: ticket keys are disposable and do not pin it.
        SecretBox replacement = new SecretBox(SecretBox.generateKey());

        SessionTicketKeys replaced = store.keysFor(period, replacement);

        assertEquals(List.of(period, period + 1), replaced.periods());
        assertFalse(Arrays.equals(stored.key(0), replaced.key(0)), "a new key for the current period");
        assertEquals(replaced, store.keysFor(period, replacement), "and it is stored");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void aTicketResumesAfterOneRotationAndNotAfterTwo(String protocol) throws Exception {
        TlsTable certificates = TlsTable.of(Map.of(HOST, TestCertificates.ecdsa(HOST)), null);
        Resumption client = new Resumption(HOST, protocol);
        rotation.rotate(START);
        client.start(listen(TlsEngine.OPENSSL, certificates.withTicketKeys(snapshotKeys())));

        rotation.rotate(START.plus(ROTATION));
        long period = rotation.periodOf(START);
        assertEquals(List.of(period + 1, period + 2, period), snapshotKeys().periods());
        assertEquals(List.of(period, period + 1, period + 2), storedPeriods());
        boolean afterOne = client.resumesOn(listen(TlsEngine.OPENSSL, certificates.withTicketKeys(snapshotKeys())));
        rotation.rotate(START.plus(ROTATION.multipliedBy(2)));
        boolean afterTwo = client.resumesOn(listen(TlsEngine.OPENSSL, certificates.withTicketKeys(snapshotKeys())));

        assertTrue(afterOne, "the previous period's key still decrypts");
        assertFalse(afterTwo, "two periods later the key is gone");
        assertEquals(List.of(period + 1, period + 2, period + 3), storedPeriods(), "older keys are deleted");
    }

    @Test
    void theDataPlanesOwnListenerEncryptsWithTheStoredKey() throws Exception {
        OriginServer origin = origin("rotate");
        Issued leaf = TestPki.leaf(TestPki.ca("Rotate Root"), Kind.EC_P256, HOST);
        String certificateId = Api.given().body(new JsonObject().put("certificate", leaf.certificatePem())
                        .put("privateKey", leaf.pkcs8Pem()).encode())
                .post("/api/v1/certificates").then().statusCode(201).extract().path("id");
        Api.create(Api.vhost("rotate", HOST, origin.url()).put("tls", new JsonObject()
                .put("certificate", certificateId)));
        rotation.rotate(START);
        // Another replica: the same certificate, and the keys it reads from the database itself.
        int replica = listen(TlsEngine.OPENSSL, snapshots.current().tls()
                .withTicketKeys(store.keysFor(rotation.periodOf(START), secrets.require())));

        // The listener swaps its keys in on its own loops, shortly after the snapshot is published.
        Eventually.within(Duration.ofSeconds(20), () -> {
            try {
                Resumption client = new Resumption(HOST, "TLSv1.3");
                client.start(dataPlane.tlsPort());
                assertTrue(client.resumesOn(replica), "a ticket of the data plane's listener resumes on the replica");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }
}
