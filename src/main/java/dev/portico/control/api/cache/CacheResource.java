package dev.portico.control.api.cache;

import dev.portico.control.api.error.Problem;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.UUID;

/** {@code /api/v1/vhosts/{id}/cache}: a vhost's response cache, to inspect and to purge. */
@Path("/api/v1/vhosts/{id}/cache")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "cache")
@APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "404", description = "No such vhost",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class CacheResource {

    private final CacheService service;

    public CacheResource(CacheService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "What a vhost's cache holds and how well it serves",
            description = "Entries and bytes now; hits, misses and the rest counted since start, as of the last "
                    + "statistics interval (one second).")
    @APIResponse(responseCode = "200", description = "The cache",
            content = @Content(schema = @Schema(implementation = CacheView.class)))
    public CacheView get(@PathParam("id") UUID id) {
        return service.view(id);
    }

    @DELETE
    @Operation(summary = "Purge a vhost's cache: everything, one path, or a path prefix",
            description = "Removes stored responses (all their variants, for every host name of the vhost) from "
                    + "this instance's memory, and tells the other replicas sharing the database to do the same. "
                    + "Without parameters the whole cache is purged.")
    @APIResponse(responseCode = "200", description = "How many URIs were removed",
            content = @Content(schema = @Schema(implementation = PurgeResult.class)))
    @APIResponse(responseCode = "400", description = "A bad parameter, named in errors[]",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public PurgeResult purge(
            @PathParam("id") UUID id,
            @Parameter(description = "An exact path such as /img/logo.png; with a query string only that target, "
                    + "without one the path with any query")
            @QueryParam("path") String path,
            @Parameter(description = "A path prefix such as /img/")
            @QueryParam("prefix") String prefix) {
        return service.purge(id, path, prefix);
    }
}
