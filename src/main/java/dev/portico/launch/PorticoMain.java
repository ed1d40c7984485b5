package dev.portico.launch;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Entry point of the packaged application. With no database configured it first starts a local PostgreSQL
 * (see {@link LocalPostgres}) so that {@code java -jar} works on a fresh machine with no setup.
 */
@QuarkusMain
public final class PorticoMain {

    public static void main(String... args) {
        LocalPostgres local = LocalPostgres.startIfUnconfigured();
        // Quarkus calls the exit handler once the application has stopped, also after SIGTERM (when the code
        // after run() would never be reached): only then may the local database go.
        Quarkus.run(null, (exitCode, failure) -> {
            if (local != null) {
                local.applicationStopped();
            }
            System.exit(exitCode);
        }, args);
    }
}
