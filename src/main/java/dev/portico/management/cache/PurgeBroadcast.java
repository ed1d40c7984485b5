package dev.portico.management.cache;

import dev.portico.config.ReplicaChannel;
import io.agroal.api.AgroalDataSource;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/**
 * {@code portico_cache_purge}: tells the other replicas sharing the database about a purge, and applies the
 * purges they send. Purges are best effort across replicas: one whose database link is down when a purge is sent
 * does not see it later (responses it holds still expire by their own freshness).
 */
@Singleton
public class PurgeBroadcast implements ReplicaChannel {

    /** The NOTIFY channel; the payload is a JSON object naming the sender, the vhost and the path or prefix. */
    public static final String NAME = "portico_cache_purge";
    /** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; a purge path is kept well below that. */
    static final int MAX_TARGET_LENGTH = 4000;
    private static final Logger LOG = Logger.getLogger(PurgeBroadcast.class);

    /** Tells this process's own notifications, which come back to it, from the other replicas'. */
    private final String instance = UUID.randomUUID().toString();
    private final AgroalDataSource dataSource;
    private final LocalPurge local;

    public PurgeBroadcast(AgroalDataSource dataSource, LocalPurge local) {
        this.dataSource = dataSource;
        this.local = local;
    }

    /** @return whether the notification was sent; false when the database could not be reached */
    boolean send(UUID vhost, String path, String prefix) {
        JsonObject payload = new JsonObject().put("from", instance).put("vhost", vhost.toString());
        if (path != null) {
            payload.put("path", path);
        }
        if (prefix != null) {
            payload.put("prefix", prefix);
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement notify = connection.prepareStatement("select pg_notify(?, ?)")) {
            notify.setString(1, NAME);
            notify.setString(2, payload.encode());
            notify.execute();
            return true;
        } catch (SQLException e) {
            LOG.warnf("A cache purge of vhost %s was not sent to the other replicas: %s", vhost, e.getMessage());
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
