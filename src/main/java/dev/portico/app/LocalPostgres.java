package dev.portico.app;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The zero-configuration database: when no datasource URL is configured, an embedded PostgreSQL 15 is started
 * with its data kept under {@code .portico/pgdata} in the working directory (override with
 * {@code PORTICO_LOCAL_DB_DIR}), so vhosts survive restarts. Meant for trying Portico out and for development;
 * production points {@code QUARKUS_DATASOURCE_JDBC_URL} at a real server. JVM mode only.
 */
final class LocalPostgres implements AutoCloseable {

    static final String URL_PROPERTY = "quarkus.datasource.jdbc.url";
    static final String URL_ENV = "QUARKUS_DATASOURCE_JDBC_URL";

    private final EmbeddedPostgres postgres;
    private final CountDownLatch applicationStopped = new CountDownLatch(1);

    private LocalPostgres(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * Starts PostgreSQL on {@code dataDir} (created on the first start, reused after) as a database that keeps what
     * it committed: the embedded server's test-speed defaults ({@code -F}, which turns fsync off, and
     * {@code synchronous_commit=off}) are overridden, so a committed vhost survives a power cut. The later
     * {@code -c fsync=on} wins over {@code -F}: PostgreSQL applies its command-line options in order.
     */
    static LocalPostgres start(Path dataDir) throws IOException {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .start();
        return new LocalPostgres(postgres);
    }

    /** A JDBC URL of the running server's {@code postgres} database, as user {@code postgres}. */
    String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    /**
     * The database must outlive the application's own shutdown (drain, pool close), which on SIGTERM runs in
     * Quarkus' shutdown hook concurrently with every other hook: wait for it, then stop PostgreSQL.
     */
    private void stopAfterApplication() {
        Thread hook = new Thread(() -> {
            try {
                applicationStopped.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        }, "portico-local-postgres-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Called once Quarkus has stopped; lets the shutdown hook stop PostgreSQL. */
    void applicationStopped() {
        applicationStopped.countDown();
    }

    /**
     * Starts the local database and points Quarkus at it, unless a datasource URL is configured anywhere.
     * {@code PORTICO_LOCAL_DB=off} (set in the container images) turns the fallback off: without a URL, Portico
     * then refuses to start instead of keeping its configuration somewhere nobody expects.
     */
    static LocalPostgres startIfUnconfigured() {
        if (isDatasourceConfigured()) {
            return null;
        }
        if ("off".equalsIgnoreCase(System.getenv("PORTICO_LOCAL_DB"))) {
            System.err.println("Portico: no database configured. Set QUARKUS_DATASOURCE_JDBC_URL (and _USERNAME, "
                    + "_PASSWORD); the local PostgreSQL fallback is off (PORTICO_LOCAL_DB=off).");
            System.exit(2);
        }
        Path dataDir = Path.of(System.getenv().getOrDefault("PORTICO_LOCAL_DB_DIR", ".portico/pgdata"))
                .toAbsolutePath();
        try {
            Files.createDirectories(dataDir);
            System.out.println("Portico: no QUARKUS_DATASOURCE_JDBC_URL configured; starting a local PostgreSQL with"
                    + " its data in " + dataDir);
            LocalPostgres local = start(dataDir);
            local.stopAfterApplication();
            String url = local.jdbcUrl();
            System.setProperty(URL_PROPERTY, url);
            System.setProperty("quarkus.datasource.username", "postgres");
            System.setProperty("quarkus.datasource.password", "postgres");
            System.out.println("Portico: local PostgreSQL is listening at " + url);
            return local;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the local PostgreSQL in " + dataDir
                    + "; set QUARKUS_DATASOURCE_JDBC_URL to use another database", e);
        }
    }

    /** Where Quarkus would find a URL: system property, environment, {@code .env}, or config/application.properties. */
    static boolean isDatasourceConfigured() {
        if (notBlank(System.getProperty(URL_PROPERTY)) || notBlank(System.getenv(URL_ENV))) {
            return true;
        }
        return fileDefines(Path.of(".env"), URL_ENV) || fileDefines(Path.of(".env"), URL_PROPERTY)
                || fileDefines(Path.of("config", "application.properties"), URL_PROPERTY);
    }

    private static boolean fileDefines(Path file, String key) {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        Properties props = new Properties();
        try (var in = Files.newInputStream(file)) {
            props.load(in);
        } catch (IOException e) {
            return false;
        }
        return notBlank(props.getProperty(key));
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }

    @Override
    public synchronized void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            System.err.println("Portico: stopping the local PostgreSQL failed: " + e.getMessage());
        }
    }
}
