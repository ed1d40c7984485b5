package dev.portico.app;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.runtime.util.ExceptionUtil;
import org.jboss.logging.Logger;

/**
 * Entry point of the packaged application. With no database configured it first starts a local PostgreSQL
 * (see {@link LocalPostgres}) so that {@code java -jar} works on a fresh machine with no setup.
 */
@QuarkusMain
public final class PorticoMain {

    public static void main(String... args) {
        // Before anything touches Netty: its allocator reads its settings once.
        PooledMemoryDefaults.apply(System.getProperties());
        LocalPostgres local = LocalPostgres.startIfUnconfigured();
        // Quarkus calls the exit handler once the application has stopped, also after SIGTERM (when the code
        // after run() would never be reached): only then may the local database go.
        Quarkus.run(null, (exitCode, failure) -> {
            if (failure != null) {
                reportFailedStart(failure);
            }
            if (local != null) {
                local.applicationStopped();
            }
            System.exit(exitCode);
        }, args);
    }

    /**
     * Quarkus reports a failed start only when it owns the exit handler; with this one it says nothing, so the reason
     * is printed here: a configuration mistake as its message alone, anything else with its stack trace.
     */
    private static void reportFailedStart(Throwable failure) {
        Throwable cause = ExceptionUtil.getRootCause(failure);
        if (cause instanceof ConfigurationException) {
            System.err.println("Portico cannot start: " + cause.getMessage());
        } else {
            Logger.getLogger(PorticoMain.class).error("Portico cannot start", failure);
        }
        System.err.flush();
    }
}
