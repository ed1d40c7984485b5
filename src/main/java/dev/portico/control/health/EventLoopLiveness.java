package dev.portico.control.health;

import dev.portico.proxy.server.DataPlaneServer;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import java.time.Duration;

/** Live while every data-plane event loop still runs tasks: a blocked loop means a stuck proxy. */
@Liveness
@Singleton
public class EventLoopLiveness implements HealthCheck {

    private final DataPlaneServer server;

    public EventLoopLiveness(DataPlaneServer server) {
        this.server = server;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("event-loops").status(server.loopsResponsive(Duration.ofSeconds(2))).build();
    }
}
