package dev.portico.control.health;

import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.server.DataPlaneServer;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once a routing snapshot from the database is published and the proxy listener is bound. */
@Readiness
@Singleton
public class DataPlaneReadiness implements HealthCheck {

    private final SnapshotHolder snapshots;
    private final DataPlaneServer server;

    public DataPlaneReadiness(SnapshotHolder snapshots, DataPlaneServer server) {
        this.snapshots = snapshots;
        this.server = server;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("dataplane")
                .status(snapshots.hasPublished() && server.isListening())
                .withData("snapshotPublished", snapshots.hasPublished())
                .withData("snapshotVersion", snapshots.current().version())
                .withData("listening", server.isListening())
                .withData("port", server.port())
                .build();
    }
}
