package dev.portico.control.health;

import dev.portico.control.snapshot.SnapshotReloader;
import io.smallrye.health.api.HealthGroup;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/** {@code /q/health/group/database}: DOWN while the configuration database is unreachable. */
@HealthGroup("database")
@Singleton
public class DatabaseHealth implements HealthCheck {

    private final SnapshotReloader reloader;

    public DatabaseHealth(SnapshotReloader reloader) {
        this.reloader = reloader;
    }

    @Override
    public HealthCheckResponse call() {
        return describe(reloader, "database").status(reloader.databaseReachable()).build();
    }

    static HealthCheckResponseBuilder describe(SnapshotReloader reloader, String name) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(name)
                .withData("reachable", reloader.databaseReachable());
        if (reloader.databaseError() != null) {
            builder.withData("error", reloader.databaseError());
        }
        return builder;
    }
}
