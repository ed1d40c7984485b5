package dev.portico.control.replicas;

import dev.portico.control.database.DatabaseReachability;
import dev.portico.control.snapshot.ReloadSettings;
import io.quarkus.arc.All;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * LISTENs on every {@link ReplicaChannel} (PostgreSQL NOTIFY from the replicas sharing the database) and hands each
 * notification to its channel. Holds one dedicated connection outside the pool on its own thread; reconnects with
 * back-off when the database goes away, and lets the channels catch up after reconnecting since notifications sent
 * meanwhile are lost.
 */
@Singleton
public class ReplicaListener {

    private static final Logger LOG = Logger.getLogger(ReplicaListener.class);

    private final Map<String, ReplicaChannel> channels = new LinkedHashMap<>();
    private final ReloadSettings config;
    private final DatabaseReachability database;
    private final Optional<String> url;
    private final Optional<String> username;
    private final Optional<String> password;
    private volatile boolean running;
    private volatile Connection connection;
    private Thread thread;

    public ReplicaListener(@All List<ReplicaChannel> channels, ReloadSettings config, DatabaseReachability database,
                                @ConfigProperty(name = "quarkus.datasource.jdbc.url") Optional<String> url,
                                @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
                                @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        for (ReplicaChannel channel : channels) {
            this.channels.put(channel.name(), channel);
        }
        this.config = config;
        this.database = database;
        this.url = url;
        this.username = username;
        this.password = password;
    }

    void start(@Observes StartupEvent event) {
        if (!config.listen() || url.isEmpty()) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "portico-replica-listener");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        closeQuietly();
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void run() {
        long backoffMillis = 500;
        boolean reconnecting = false;
        while (running) {
            try (Connection conn = connect()) {
                connection = conn;
                try (Statement statement = conn.createStatement()) {
                    for (String name : channels.keySet()) {
                        statement.execute("LISTEN " + name);
                    }
                }
                if (reconnecting) {
                    LOG.debug("Listening to the other replicas again");
                    channels.values().forEach(ReplicaChannel::onReconnected);
                }
                backoffMillis = 500;
                PGConnection pg = conn.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            deliver(notification);
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                // A lost connection is the outage DatabaseReachability logs once; anything else is the listener's own.
                if (!database.reportFailure("the replica listener", e) && !reconnecting) {
                    LOG.warnf("Replica listener lost its database connection (%s); retrying", e.getMessage());
                }
                reconnecting = true;
                try {
                    Thread.sleep(backoffMillis);
                } catch (InterruptedException interrupted) {
                    return;
                }
                backoffMillis = Math.min(backoffMillis * 2, 10_000);
            }
        }
    }

    private void deliver(PGNotification notification) {
        ReplicaChannel channel = channels.get(notification.getName());
        if (channel == null) {
            return;
        }
        try {
            channel.onNotification(notification.getParameter());
        } catch (RuntimeException e) {
            // One bad notification must not cost the connection, and with it every later notification.
            LOG.warnf(e, "Could not act on a notification on %s", notification.getName());
        }
    }

    private Connection connect() throws SQLException {
        Properties props = new Properties();
        username.ifPresent(u -> props.setProperty("user", u));
        password.ifPresent(p -> props.setProperty("password", p));
        props.setProperty("connectTimeout", "5");
        props.setProperty("tcpKeepAlive", "true");
        props.setProperty("ApplicationName", "portico-listener");
        return DriverManager.getConnection(url.get(), props);
    }

    private void closeQuietly() {
        Connection conn = connection;
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException ignored) {
                // closing on shutdown; nothing to do
            }
        }
    }
}
