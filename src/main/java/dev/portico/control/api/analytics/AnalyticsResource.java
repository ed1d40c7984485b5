package dev.portico.control.api.analytics;

import dev.portico.control.api.error.NeedsDatabase;
import dev.portico.control.api.error.Problem;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.UUID;

/** {@code /api/v1/vhosts/{id}/analytics}: a vhost's stored traffic buckets, merged over a time range. */
@NeedsDatabase
@Path("/api/v1/vhosts/{id}/analytics")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "analytics")
@APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "503", description = "The configuration database is unreachable",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class AnalyticsResource {

    private final AnalyticsService service;

    public AnalyticsResource(AnalyticsService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "Traffic of a vhost over a time range",
            description = "Requests, bytes, status mix, top paths, clients, user agents and referrers, merged from "
                    + "the vhost's minute buckets that start in [from, to), and the per-minute series. A minute "
                    + "is stored once it has closed, so the current minute shows up about a minute later.")
    @APIResponse(responseCode = "200", description = "The merged traffic",
            content = @Content(schema = @Schema(implementation = AnalyticsView.class)))
    @APIResponse(responseCode = "400", description = "A bad parameter, named in errors[]",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "No such vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public AnalyticsView get(
            @PathParam("id") UUID id,
            @Parameter(description = "Start (ISO-8601 instant, inclusive); default: an hour before to",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time"))
            @QueryParam("from") String from,
            @Parameter(description = "End (ISO-8601 instant, exclusive); default: now. At most the retention "
                    + "(portico.analytics.retention, 7d) after from",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time"))
            @QueryParam("to") String to,
            @Parameter(description = "Entries per top list, 1 to 100",
                    schema = @Schema(type = SchemaType.INTEGER, defaultValue = "10", minimum = "1", maximum = "100"))
            @QueryParam("top") String top) {
        return service.analytics(id, from, to, top);
    }
}
