package dev.portico.control.api.auth;

import dev.portico.testing.Api;
import dev.portico.testing.DatabaseLink;
import dev.portico.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;

import static dev.portico.testing.Eventually.within;
import static dev.portico.testing.Problems.VHOSTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sign-out reaches the other replicas sharing the database: what another replica writes (the row, the NOTIFY) is
 * written here straight into PostgreSQL, as that replica would. Only hashes of session ids are stored.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SessionRevocationTest {

    /** The pool waits 3 s for a connection (quarkus.datasource.jdbc.acquisition-timeout), a query 2 s more. */
    private static final Duration QUICK_ANSWER = Duration.ofSeconds(8);
    private static final Duration RECOVERY = Duration.ofSeconds(15);

    @Inject
    SessionCookies cookies;

    @Inject
    AgroalDataSource dataSource;

    @PostgresResource.InjectLink
    DatabaseLink link;

    @AfterEach
    void restoreTheDatabase() {
        // Always, even when an assertion failed mid-outage: the other test classes share this database.
        link.restore();
        within(RECOVERY, () -> Api.given().get(VHOSTS).then().statusCode(200));
    }

    private static String sha256Hex(byte[] id) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(id));
    }

    private int statusWith(DashboardSession session) {
        return RestAssured.given().cookie(SessionCookies.NAME, cookies.value(session)).get(VHOSTS).statusCode();
    }

    @Test
    void anotherReplicasNotificationRevokesTheSessionHereAtOnce() throws Exception {
        DashboardSession session = cookies.issue(Instant.now());
        assertEquals(200, statusWith(session));

        try (Connection connection = dataSource.getConnection();
             PreparedStatement notify = connection.prepareStatement("select pg_notify(?, ?)")) {
            notify.setString(1, SessionRevocations.NAME);
            notify.setString(2, sha256Hex(session.id()) + ":" + session.expiresAt().getEpochSecond());
            notify.execute();
        }

        within(Duration.ofMillis(900), () -> assertEquals(401, statusWith(session)));
    }

    @Test
    void aRowAnotherReplicaStoredIsFoundByThePollWithoutANotification() throws Exception {
        DashboardSession session = cookies.issue(Instant.now());
        assertEquals(200, statusWith(session));

        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "insert into dashboard_session_revocation (session_sha256, expires_at) values (?, ?)")) {
            insert.setBytes(1, HexFormat.of().parseHex(sha256Hex(session.id())));
            insert.setTimestamp(2, Timestamp.from(session.expiresAt()));
            insert.executeUpdate();
        }

        // The test profile polls every second (portico.reload.poll-interval).
        within(Duration.ofSeconds(4), () -> assertEquals(401, statusWith(session)));
    }

    @Test
    void signingOutStoresOnlyTheHashOfTheSessionId() throws Exception {
        SessionTest.Signed signed = SessionTest.signIn();
        DashboardSession session = cookies.verify(signed.cookie(), Instant.now()).orElseThrow();

        signed.given().header("X-Portico-Csrf", signed.csrf()).delete(SessionTest.SESSION).then().statusCode(204);

        assertTrue(storedHashes().contains(sha256Hex(session.id())), "the sign-out is stored for the replicas");
    }

    @Test
    void signingInAndCookieChecksNeedNoDatabase() {
        link.cut();

        SessionTest.Signed signed = SessionTest.signIn();

        signed.given().get(SessionTest.SESSION).then().statusCode(200);
        signed.given().get("/api/v1/status").then().statusCode(200);
    }

    @Test
    void aSignOutDuringADatabaseOutageHoldsHereAtOnceAndIsStoredWhenTheDatabaseIsBack() throws Exception {
        SessionTest.Signed signed = SessionTest.signIn();
        DashboardSession session = cookies.verify(signed.cookie(), Instant.now()).orElseThrow();
        link.cut();

        long started = System.nanoTime();
        signed.given().header("X-Portico-Csrf", signed.csrf()).delete(SessionTest.SESSION).then().statusCode(204);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertTrue(took.compareTo(QUICK_ANSWER) < 0, "signing out took " + took);
        assertEquals(401, statusWith(session), "refused here while the database is away");
        link.restore();
        within(RECOVERY, () -> {
            try {
                assertTrue(storedHashes().contains(sha256Hex(session.id())));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    private Set<String> storedHashes() throws Exception {
        Set<String> hashes = new HashSet<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select session_sha256 from dashboard_session_revocation");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                hashes.add(HexFormat.of().formatHex(rows.getBytes(1)));
            }
        }
        return hashes;
    }
}
