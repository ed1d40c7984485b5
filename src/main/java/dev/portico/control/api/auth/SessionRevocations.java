package dev.portico.control.api.auth;

import dev.portico.control.replicas.ReplicaChannel;
import dev.portico.control.database.DatabaseReachability;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Signed-out sessions, refused until they would have expired anyway. Checked in memory on every cookie-authenticated
 * call (no database round trip); shared with the other replicas through {@code dashboard_session_revocation} (only
 * the SHA-256 of a session id is stored) and {@value #NAME} notifications:
 * <ul>
 *   <li>A sign-out is refused here at once, then stored and announced in one transaction; replicas that LISTEN
 *       refuse it within milliseconds.</li>
 *   <li>Every {@code portico.reload.poll-interval} each replica re-reads the table: a replica whose listener was
 *       away, or that does not listen, catches up within that interval.</li>
 *   <li>During a database outage a sign-out is kept in memory and stored once the database is back; until then only
 *       this replica refuses the cookie (the browser has forgotten it anyway).</li>
 * </ul>
 */
@Singleton
public class SessionRevocations implements ReplicaChannel {

    /** The NOTIFY channel; the payload is {@code <sha256 hex>:<expiry epoch seconds>}. */
    public static final String NAME = "portico_session_revoked";
    /** A database behind a silent network must not hold a sign-out's answer. */
    private static final int QUERY_TIMEOUT_SECONDS = 2;
    private static final Logger LOG = Logger.getLogger(SessionRevocations.class);

    private record Revocation(String idSha256, long expiresAt) {
    }

    /** SHA-256 (hex) of each revoked session id -> when it expires (epoch seconds). */
    private final Map<String, Long> revoked = new ConcurrentHashMap<>();
    /** Sign-outs the database did not take yet. */
    private final Queue<Revocation> unsaved = new ConcurrentLinkedQueue<>();
    private final AgroalDataSource dataSource;
    private final DatabaseReachability database;

    public SessionRevocations(AgroalDataSource dataSource, DatabaseReachability database) {
        this.dataSource = dataSource;
        this.database = database;
    }

    void load(@Observes @Priority(SessionCookies.STARTUP_PRIORITY) StartupEvent event) {
        sync();
    }

    /** Whether the session with this id was signed out. Memory only: safe on an event loop. */
    public boolean isRevoked(byte[] id) {
        return revoked.containsKey(sha256Hex(id));
    }

    /** Signs a session out on every replica (see the class comment for what holds when the database is away). */
    public void revoke(DashboardSession session) {
        Revocation revocation = new Revocation(sha256Hex(session.id()), session.expiresAt().getEpochSecond());
        revoked.put(revocation.idSha256(), revocation.expiresAt());
        if (!database.reachable() || !store(revocation)) {
            unsaved.add(revocation);
            LOG.warn("A dashboard sign-out could not be stored (database unreachable): this replica refuses the "
                    + "session now, the others once the database is back");
        }
    }

    /** Stores the sign-outs the database missed, forgets expired ones and learns those of the other replicas. */
    @Scheduled(every = "${portico.reload.poll-interval}", delayed = "${portico.reload.poll-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sync() {
        long now = Instant.now().getEpochSecond();
        revoked.values().removeIf(expiresAt -> expiresAt <= now);
        if (!database.reachable()) {
            // Its probe finds out when it is back (and syncs then); meanwhile no call here waits for a connection.
            return;
        }
        Revocation pending;
        while ((pending = unsaved.peek()) != null) {
            if (!store(pending)) {
                return;
            }
            unsaved.poll();
        }
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement delete = connection.prepareStatement(
                    "delete from dashboard_session_revocation where expires_at <= now()")) {
                delete.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                delete.executeUpdate();
            }
            try (PreparedStatement select = connection.prepareStatement(
                    "select session_sha256, expires_at from dashboard_session_revocation")) {
                select.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        revoked.put(HexFormat.of().formatHex(rows.getBytes(1)),
                                rows.getTimestamp(2).toInstant().getEpochSecond());
                    }
                }
            }
        } catch (SQLException e) {
            database.reportFailure("the sign-out sync", e);
            LOG.debugf("Signed-out sessions not re-read (SQLState %s): %s", e.getSQLState(), e.getMessage());
        }
    }

    /** Inserts and announces one sign-out in one transaction (NOTIFY is sent at commit); false when it failed. */
    private boolean store(Revocation revocation) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("insert into dashboard_session_revocation "
                    + "(session_sha256, expires_at) values (?, ?) on conflict do nothing");
                 PreparedStatement notify = connection.prepareStatement("select pg_notify(?, ?)")) {
                insert.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                insert.setBytes(1, HexFormat.of().parseHex(revocation.idSha256()));
                insert.setTimestamp(2, Timestamp.from(Instant.ofEpochSecond(revocation.expiresAt())));
                insert.executeUpdate();
                notify.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                notify.setString(1, NAME);
                notify.setString(2, revocation.idSha256() + ":" + revocation.expiresAt());
                notify.execute();
                connection.commit();
                return true;
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            database.reportFailure("storing a sign-out", e);
            LOG.debugf("A sign-out was not stored (SQLState %s): %s", e.getSQLState(), e.getMessage());
            return false;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onNotification(String payload) {
        int colon = payload.indexOf(':');
        String hash = colon < 0 ? "" : payload.substring(0, colon);
        if (hash.length() != 64 || !hash.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            LOG.warnf("Ignoring a malformed sign-out notification: %s", payload);
            return;
        }
        try {
            revoked.put(hash.toLowerCase(Locale.ROOT), Long.parseLong(payload.substring(colon + 1)));
        } catch (NumberFormatException e) {
            LOG.warnf("Ignoring a malformed sign-out notification: %s", payload);
        }
    }

    @Override
    public void onReconnected() {
        sync();
    }

    /** Sign-outs made during the outage are stored as soon as the database answers again. */
    void afterOutage(@Observes DatabaseReachability.Recovered recovered) {
        sync();
    }

    private static String sha256Hex(byte[] id) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(id));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
