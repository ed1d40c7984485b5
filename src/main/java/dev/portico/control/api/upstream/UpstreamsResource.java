package dev.portico.control.api.upstream;

import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.Problem;
import dev.portico.proxy.core.outcome.UpstreamReport;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.route.UpstreamHealthService;
import dev.portico.vhost.VhostSpec;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;
import java.util.UUID;

/** {@code /api/v1/vhosts/{id}/upstreams}: the health of a vhost's upstreams, from memory. */
@Path("/api/v1/vhosts/{id}/upstreams")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "upstreams")
@APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "No vhost with this id is served",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class UpstreamsResource {

    private final SnapshotHolder snapshots;
    private final UpstreamHealthService health;

    public UpstreamsResource(SnapshotHolder snapshots, UpstreamHealthService health) {
        this.snapshots = snapshots;
        this.health = health;
    }

    @GET
    @Operation(summary = "Each upstream's state, since when and why, and what went through it; the circuit breaker's "
            + "state",
            description = "As this instance sees it: active checks and passive health run in every replica. "
                    + "Answers from memory, so it works while the configuration database is unreachable.")
    @APIResponse(responseCode = "200", description = "The vhost's upstreams",
            content = @Content(schema = @Schema(implementation = UpstreamsView.class)))
    public UpstreamsView get(@PathParam("id") UUID id) {
        VhostSpec served = snapshots.current().specs().stream().filter(spec -> spec.id().equals(id)).findFirst()
                .orElseThrow(() -> ApiProblem.notFound("No vhost with id " + id + " is served"));
        List<UpstreamReport> reports = health.reports(id);
        return new UpstreamsView(served.name(), reports == null ? List.of()
                : reports.stream().map(UpstreamsView.Upstream::of).toList(),
                UpstreamsView.Breaker.of(health.breaker(id)));
    }
}
