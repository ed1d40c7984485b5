package dev.portico.control.health;

import dev.portico.control.database.DatabaseReachability;
import io.smallrye.health.api.HealthGroup;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * {@code /q/health/group/database}: DOWN from the first failed database operation until a probe reaches it again,
 * the same state the API's 503 and {@code /api/v1/status} read ({@link DatabaseReachability}).
 */
@HealthGroup("database")
@Singleton
public class DatabaseHealth implements HealthCheck {

    private final DatabaseReachability database;

    public DatabaseHealth(DatabaseReachability database) {
        this.database = database;
    }

    @Override
    public HealthCheckResponse call() {
        return describe(database, "database").status(database.reachable()).build();
    }

    static HealthCheckResponseBuilder describe(DatabaseReachability database, String name) {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named(name)
                .withData("reachable", database.reachable());
        if (database.error() != null) {
            builder.withData("error", database.error());
            builder.withData("unreachableSince", String.valueOf(database.unreachableSince()));
        }
        return builder;
    }
}
