package dev.portico.app;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 11 item 14: the local database that {@code java -jar} starts when nothing is configured keeps what it
 * committed. The embedded server's defaults are made for tests ({@code -F}: fsync off, and
 * {@code synchronous_commit=off}), with which a power cut can lose committed vhosts.
 */
class LocalPostgresTest {

    @Test
    void theLocalDatabaseFlushesEveryCommitToDisk(@TempDir Path dataDir) throws Exception {
        try (LocalPostgres local = LocalPostgres.start(dataDir.resolve("pgdata"))) {
            try (Connection connection = DriverManager.getConnection(local.jdbcUrl(), "postgres", "postgres")) {
                assertEquals("on", show(connection, "fsync"));
                assertEquals("on", show(connection, "synchronous_commit"));
                assertEquals("on", show(connection, "full_page_writes"));
            }
        }
    }

    private static String show(Connection connection, String setting) throws Exception {
        try (Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("show " + setting)) {
            result.next();
            return result.getString(1);
        }
    }
}
