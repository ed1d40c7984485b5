package dev.portico.control.replicas;

import dev.portico.cache.LocalPurge;
import dev.portico.control.database.DatabaseReachability;
import io.agroal.api.AgroalDataSource;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/**
 * {@code portico_cache_purge}: tells the other replicas sharing the database about a purge, and applies the
 * purges they send. Purges are best effort across replicas: one whose listener is disconnected when a purge is sent,
 * or that does not listen at all ({@code portico.reload.listen=false}), never sees it (responses it holds still
 * expire by their own freshness); unlike configuration changes, there is no poll to catch up with.
 */
@Singleton
public class PurgeBroadcast implements ReplicaChannel {

    /** The NOTIFY channel; the payload is a JSON object naming the sender, the vhost and the path or prefix. */
    public static final String NAME = "portico_cache_purge";
    /** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
    static final int MAX_PAYLOAD_BYTES = 7999;
    /** A sent NOTIFY answers in milliseconds; a database behind a silent network must not hold the purge's answer. */
    private static final int NOTIFY_TIMEOUT_SECONDS = 2;
    private static final Logger LOG = Logger.getLogger(PurgeBroadcast.class);

    /** Tells this process's own notifications, which come back to it, from the other replicas'. */
    private final String instance = UUID.randomUUID().toString();
    private final AgroalDataSource dataSource;
    private final LocalPurge local;
    private final DatabaseReachability database;

    public PurgeBroadcast(AgroalDataSource dataSource, LocalPurge local, DatabaseReachability database) {
        this.dataSource = dataSource;
        this.local = local;
        this.database = database;
    }

    /**
     * The notification for one purge, or null when it is too long to send: PostgreSQL counts its payload in bytes,
     * after JSON escaping and UTF-8 encoding.
     */
    public String payload(UUID vhost, String path, String prefix) {
        JsonObject payload = new JsonObject().put("from", instance).put("vhost", vhost.toString());
        if (path != null) {
            payload.put("path", path);
        }
        if (prefix != null) {
            payload.put("prefix", prefix);
        }
        String encoded = payload.encode();
        return encoded.getBytes(StandardCharsets.UTF_8).length > MAX_PAYLOAD_BYTES ? null : encoded;
    }

    /**
     * Sends a payload made by {@link #payload}. Not tried once any database operation found the database
     * unreachable ({@link DatabaseReachability}), so a purge during an outage answers at once.
     *
     * @return whether the notification was committed; false when the database could not be reached
     */
    public boolean send(String payload) {
        if (!database.reachable()) {
            LOG.infof("A cache purge was not sent to the other replicas: the database is unreachable (%s)",
                    database.error());
            return false;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement notify = connection.prepareStatement("select pg_notify(?, ?)")) {
            notify.setQueryTimeout(NOTIFY_TIMEOUT_SECONDS);
            notify.setString(1, NAME);
            notify.setString(2, payload);
            notify.execute();
            return true;
        } catch (SQLException e) {
            if (database.reportFailure("a cache purge's NOTIFY", e)) {
                LOG.infof("A cache purge was not sent to the other replicas: the database is unreachable (%s)",
                        e.getMessage());
                return false;
            }
            LOG.warnf("A cache purge was not sent to the other replicas (SQLState %s): %s", e.getSQLState(),
                    e.getMessage());
            return false;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void onNotification(String payload) {
        JsonObject purge;
        try {
            purge = new JsonObject(payload);
        } catch (DecodeException e) {
            LOG.warnf("Ignoring a malformed cache purge notification: %s", payload);
            return;
        }
        if (instance.equals(purge.getString("from"))) {
            return;
        }
        local.purge(UUID.fromString(purge.getString("vhost")), purge.getString("path"), purge.getString("prefix"));
    }
}
