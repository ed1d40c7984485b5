package dev.portico.config;

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
import java.util.Optional;
import java.util.Properties;

/**
 * LISTENs for configuration changes other replicas commit (PostgreSQL NOTIFY on {@code portico_config}) and
 * reloads. Holds one dedicated connection outside the pool on its own thread; reconnects with back-off when the
 * database goes away, and reloads after reconnecting since notifications sent meanwhile are lost.
 */
@Singleton
public class ConfigChangeListener {

    /** The NOTIFY channel; the payload is the new configuration version. */
    public static final String CHANNEL = "portico_config";
    private static final Logger LOG = Logger.getLogger(ConfigChangeListener.class);

    private final SnapshotReloader reloader;
    private final PorticoConfig config;
    private final Optional<String> url;
    private final Optional<String> username;
    private final Optional<String> password;
    private volatile boolean running;
    private volatile Connection connection;
    private Thread thread;

    public ConfigChangeListener(SnapshotReloader reloader, PorticoConfig config,
                                @ConfigProperty(name = "quarkus.datasource.jdbc.url") Optional<String> url,
                                @ConfigProperty(name = "quarkus.datasource.username") Optional<String> username,
                                @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.reloader = reloader;
        this.config = config;
        this.url = url;
        this.username = username;
        this.password = password;
    }

    void start(@Observes StartupEvent event) {
        if (!config.reload().listen() || url.isEmpty()) {
            return;
        }
        running = true;
        thread = new Thread(this::run, "portico-config-listener");
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
                    statement.execute("LISTEN " + CHANNEL);
                }
                if (reconnecting) {
                    LOG.info("Listening for configuration changes again");
                    reloader.reload();
                }
                backoffMillis = 500;
                PGConnection pg = conn.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(1000);
                    if (notifications != null && notifications.length > 0) {
                        long newest = 0;
                        for (PGNotification n : notifications) {
                            newest = Math.max(newest, parse(n.getParameter()));
                        }
                        reloader.reloadAtLeast(newest);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!running) {
                    return;
                }
                if (!reconnecting) {
                    LOG.warnf("Configuration change listener lost its connection (%s); retrying", e.getMessage());
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

    private static long parse(String payload) {
        try {
            return Long.parseLong(payload);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
