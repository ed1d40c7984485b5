package dev.portico.control.health;

import dev.portico.control.database.DatabaseReachability;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports the configuration database under readiness without failing it: while PostgreSQL is away the data plane
 * keeps serving its snapshot, and taking the instance out of a load balancer would turn a management outage into
 * a traffic outage. The strict check is {@code /q/health/group/database}.
 */
@Readiness
@Singleton
public class DatabaseReadiness implements HealthCheck {

    private final DatabaseReachability database;

    public DatabaseReadiness(DatabaseReachability database) {
        this.database = database;
    }

    @Override
    public HealthCheckResponse call() {
        return DatabaseHealth.describe(database, "database").up().build();
    }
}
