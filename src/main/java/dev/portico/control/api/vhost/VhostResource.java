package dev.portico.control.api.vhost;

import dev.portico.control.api.error.NeedsDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import dev.portico.control.api.error.Problem;
import dev.portico.control.definition.VhostDefinition;
import dev.portico.control.definition.VhostView;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;
import java.util.UUID;

/**
 * {@code /api/v1/vhosts}: create, read, replace and delete vhosts; every change is live when the call returns.
 * Bodies arrive as a JSON tree and are bound by the validator, so a value of the wrong JSON type is reported together
 * with every other invalid field instead of alone.
 */
@NeedsDatabase
@Path("/api/v1/vhosts")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "vhosts")
@APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "503", description = "The configuration database is unreachable",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class VhostResource {

    private final VhostService service;

    public VhostResource(VhostService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "List vhosts, ordered by name")
    @APIResponse(responseCode = "200", description = "Every vhost, ordered by name (case-insensitive)",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = VhostView.class)))
    public List<VhostView> list() {
        return service.list();
    }

    @POST
    @Operation(summary = "Create a vhost")
    @APIResponse(responseCode = "201", description = "Created; Location names it, ETag carries its version",
            headers = {@Header(name = "Location", description = "URL of the new vhost",
                    schema = @Schema(type = SchemaType.STRING)), @Header(ref = "ETag")},
            content = @Content(schema = @Schema(implementation = VhostView.class)))
    @APIResponse(responseCode = "400", description = "Invalid field(s), each named in errors[]",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "The name or a host name is already used by another vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "The body is larger than the API's limit "
            + "(portico.admin.max-body-size)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "415", description = "The body is not sent as application/json",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response create(@RequestBody(required = true,
                                   content = @Content(schema = @Schema(implementation = VhostDefinition.class)))
                           JsonNode definition,
                           @Context UriInfo uri) {
        VhostView view = service.create(definition);
        return Response.created(uri.getAbsolutePathBuilder().path(view.id().toString()).build())
                .tag(etag(view))
                .entity(view)
                .build();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a vhost")
    @APIResponse(responseCode = "200", description = "The vhost; ETag carries its version",
            headers = @Header(ref = "ETag"),
            content = @Content(schema = @Schema(implementation = VhostView.class)))
    @APIResponse(responseCode = "404", description = "No such vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response get(@PathParam("id") UUID id) {
        VhostView view = service.get(id);
        return Response.ok(view).tag(etag(view)).build();
    }

    @PUT
    @Path("{id}")
    @Operation(summary = "Replace a vhost", description = "Send If-Match with the ETag read earlier to "
            + "refuse the change if someone else changed the vhost meanwhile.")
    @APIResponse(responseCode = "200", description = "Replaced; ETag carries the new version",
            headers = @Header(ref = "ETag"),
            content = @Content(schema = @Schema(implementation = VhostView.class)))
    @APIResponse(responseCode = "400", description = "Invalid field(s), each named in errors[], or an If-Match that is "
            + "not * or a list of quoted entity tags",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "No such vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "The name or a host name is used by another vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "412", description = "If-Match names no current ETag of the vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "The body is larger than the API's limit "
            + "(portico.admin.max-body-size)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "415", description = "The body is not sent as application/json",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response replace(@PathParam("id") UUID id,
                            @Parameter(description = "The ETag the change is based on, quoted as GET returns it, or *")
                            @HeaderParam("If-Match") String ifMatch,
                            @RequestBody(required = true,
                                    content = @Content(schema = @Schema(implementation = VhostDefinition.class)))
                            JsonNode definition) {
        VhostView view = service.replace(id, definition, ifMatch);
        return Response.ok(view).tag(etag(view)).build();
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a vhost")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "400", description = "An If-Match that is not * or a list of quoted entity tags",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = "No such vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "412", description = "If-Match names no current ETag of the vhost",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response delete(@PathParam("id") UUID id,
                           @Parameter(description = "The ETag the deletion is based on, quoted as GET returns "
                                   + "it, or *")
                           @HeaderParam("If-Match") String ifMatch) {
        service.delete(id, ifMatch);
        return Response.noContent().build();
    }

    private static EntityTag etag(VhostView view) {
        return new EntityTag(Long.toString(view.version()));
    }
}
