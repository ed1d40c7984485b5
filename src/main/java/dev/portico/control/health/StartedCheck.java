package dev.portico.control.health;

import dev.portico.proxy.server.DataPlaneServer;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

/** Started once the data plane has been brought up (the first snapshot load was attempted before it). */
@Startup
@Singleton
public class StartedCheck implements HealthCheck {

    private final DataPlaneServer server;

    public StartedCheck(DataPlaneServer server) {
        this.server = server;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("started").status(server.isStarted()).build();
    }
}
