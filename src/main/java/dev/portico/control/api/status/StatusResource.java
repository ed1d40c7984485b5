package dev.portico.control.api.status;

import dev.portico.control.api.error.Problem;
import dev.portico.control.database.DatabaseReachability;
import dev.portico.control.definition.StaticRootProbe;
import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.route.UpstreamHealthService;
import dev.portico.proxy.route.UpstreamResolver;
import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.vhost.StaticSpec;
import dev.portico.vhost.VhostSpec;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code /api/v1/status}: which configuration the data plane serves and whether the last reload worked. */
@Path("/api/v1/status")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "status")
public class StatusResource {

    private final SnapshotHolder snapshots;
    private final SnapshotReloader reloader;
    private final DataPlaneServer dataPlane;
    private final AccessLog accessLog;
    private final UpstreamResolver resolver;
    private final UpstreamHealthService upstreamHealth;
    private final DatabaseReachability database;

    public StatusResource(SnapshotHolder snapshots, SnapshotReloader reloader, DataPlaneServer dataPlane,
                          AccessLog accessLog, UpstreamResolver resolver, UpstreamHealthService upstreamHealth,
                          DatabaseReachability database) {
        this.database = database;
        this.resolver = resolver;
        this.upstreamHealth = upstreamHealth;
        this.snapshots = snapshots;
        this.reloader = reloader;
        this.dataPlane = dataPlane;
        this.accessLog = accessLog;
    }

    @GET
    @Operation(summary = "Snapshot version, build time, vhost count, last reload error and data-plane state",
            description = "Answers from memory, so it works while the configuration database is unreachable.")
    @APIResponse(responseCode = "200", description = "The state of this instance",
            content = @Content(schema = @Schema(implementation = StatusView.class)))
    @APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public StatusView status() {
        RoutingSnapshot snapshot = snapshots.current();
        // The reloader keeps the time of its last failure after a later reload succeeded; shown alone it would
        // report an error that no longer exists.
        String lastError = reloader.lastError();
        return new StatusView(snapshot.version(), snapshots.hasPublished() ? snapshot.builtAt() : null,
                snapshot.vhosts().size(), lastError, lastError == null ? null : reloader.lastErrorAt(),
                database.reachable(), database.error(), database.unreachableSince(), dataPlane.isListening(), dataPlane.port(),
                dataPlane.inFlight(), snapshot.viaPseudonym(), staticRootWarnings(snapshot),
                AccessLogView.of(accessLog.status()), CertificateWarnings.of(dataPlane.presentedCertificates(),
                        reloader.certificateProblem(), Instant.now()),
                resolver.problems().stream()
                        .map(p -> new StatusView.DnsProblem(p.name(), p.error(), p.since())).toList(),
                upstreamHealth.vhostsWithoutHealthyUpstream());
    }

    private static List<StatusView.StaticRootWarning> staticRootWarnings(RoutingSnapshot snapshot) {
        List<StatusView.StaticRootWarning> out = new ArrayList<>();
        for (VhostSpec vhost : snapshot.specs()) {
            StaticSpec files = vhost.staticFiles();
            String problem = files == null ? null : StaticRootProbe.problem(files.root());
            if (problem != null) {
                out.add(new StatusView.StaticRootWarning(vhost.name(), files.root(), problem));
            }
        }
        return out;
    }
}
