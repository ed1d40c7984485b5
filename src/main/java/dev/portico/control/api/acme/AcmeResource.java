package dev.portico.control.api.acme;

import dev.portico.control.api.error.NeedsDatabase;
import dev.portico.control.acme.AcmeEnrollment;
import dev.portico.control.acme.AcmeStateStore;
import dev.portico.control.acme.AcmeVhostState;
import dev.portico.control.acme.RenewerLease;
import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.Problem;
import dev.portico.control.api.vhost.VhostService;
import dev.portico.control.definition.VhostView;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import javax.sql.DataSource;
import java.util.Optional;
import java.util.UUID;

/** {@code /api/v1/vhosts/{id}/acme}: the state of a vhost's automatic certificate, and a forced renewal. */
@NeedsDatabase
@Path("/api/v1/vhosts/{id}/acme")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "vhosts")
@APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "No such vhost, or it does not use tls.acme",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class AcmeResource {

    private final VhostService vhosts;
    private final AcmeStateStore states;
    private final AcmeEnrollment enrollment;
    private final DataSource dataSource;

    public AcmeResource(VhostService vhosts, AcmeStateStore states, AcmeEnrollment enrollment,
                        DataSource dataSource) {
        this.vhosts = vhosts;
        this.states = states;
        this.enrollment = enrollment;
        this.dataSource = dataSource;
    }

    @GET
    @Operation(summary = "The state of the vhost's automatic certificate")
    @APIResponse(responseCode = "200", description = "The state, the last error in the CA's words, the next attempt",
            content = @Content(schema = @Schema(implementation = AcmeStatusView.class)))
    public AcmeStatusView status(@PathParam("id") UUID id) {
        acmeVhost(id);
        String renewer = RenewerLease.currentHolder(dataSource).orElse(null);
        Optional<AcmeVhostState> state = states.find(id);
        if (state.isEmpty()) {
            return new AcmeStatusView("pending", null, null, 0, null, renewer);
        }
        AcmeVhostState s = state.get();
        return new AcmeStatusView(s.state().name().toLowerCase(java.util.Locale.ROOT), s.lastError().orElse(null),
                s.nextAttemptAt(), s.attempts(), s.certificateId().orElse(null), renewer);
    }

    @POST
    @Path("renew")
    @Operation(summary = "Order a new certificate now", description = "The renewer orders at its next round "
            + "(portico.acme.check-interval); the current certificate is served until the new one is issued.")
    @APIResponse(responseCode = "202", description = "Scheduled")
    public Response renew(@PathParam("id") UUID id) {
        acmeVhost(id);
        enrollment.synchronise();
        enrollment.dueNow(id);
        return Response.accepted().build();
    }

    private void acmeVhost(UUID id) {
        VhostView vhost = vhosts.get(id);
        if (vhost.tls() == null || !Boolean.TRUE.equals(vhost.tls().acme())) {
            throw ApiProblem.notFound("Vhost " + id + " does not obtain its certificate automatically (tls.acme)");
        }
    }
}
