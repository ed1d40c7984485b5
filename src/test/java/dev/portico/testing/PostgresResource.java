package dev.portico.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

/**
 * A real PostgreSQL for the tests. With {@code PORTICO_TEST_DB_URL} (a server CI started, plus optional
 * {@code PORTICO_TEST_DB_USER}/{@code _PASSWORD}) it creates a fresh database there; otherwise it starts an embedded
 * PostgreSQL 15. Either way Portico reaches it through a {@link DatabaseLink} that tests can cut.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    /** Injects the running {@link DatabaseLink} into a test field. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectLink {
    }

    private static DatabaseLink link;
    private static EmbeddedPostgres embedded;
    private static Map<String, String> properties;

    @Override
    public synchronized Map<String, String> start() {
        if (properties != null) {
            return properties;
        }
        try {
            String user = env("PORTICO_TEST_DB_USER", "postgres");
            String password = env("PORTICO_TEST_DB_PASSWORD", "postgres");
            String adminUrl;
            String host;
            int port;
            String external = System.getenv("PORTICO_TEST_DB_URL");
            if (external != null && !external.isBlank()) {
                adminUrl = external;
                URI uri = URI.create(external.substring("jdbc:".length()));
                host = uri.getHost();
                port = uri.getPort() == -1 ? 5432 : uri.getPort();
            } else {
                embedded = EmbeddedPostgres.builder().start();
                adminUrl = embedded.getJdbcUrl("postgres", "postgres");
                host = "127.0.0.1";
                port = embedded.getPort();
            }
            String database = "portico_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            try (Connection c = DriverManager.getConnection(adminUrl, user, password);
                 Statement s = c.createStatement()) {
                s.execute("create database " + database);
            }
            link = new DatabaseLink(host, port);
            properties = Map.of(
                    "quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:" + link.port() + "/" + database,
                    "quarkus.datasource.username", user,
                    "quarkus.datasource.password", password);
            return properties;
        } catch (Exception e) {
            throw new IllegalStateException("cannot provide a PostgreSQL for the tests", e);
        }
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(link,
                new TestInjector.AnnotatedAndMatchesType(InjectLink.class, DatabaseLink.class));
    }

    @Override
    public void stop() {
        // Shared by every test class of the run and torn down by the JVM's exit (the embedded server registers its
        // own shutdown hook), so a restart between test profiles keeps the same database.
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
