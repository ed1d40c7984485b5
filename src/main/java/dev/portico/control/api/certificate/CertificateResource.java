package dev.portico.control.api.certificate;

import dev.portico.control.api.error.NeedsDatabase;
import com.fasterxml.jackson.databind.JsonNode;
import dev.portico.control.api.error.Problem;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;
import java.util.UUID;

/**
 * {@code /api/v1/certificates}: upload, list, read and delete TLS certificates. A vhost presents one by naming its
 * id in {@code tls.certificate}. Private keys go in and never come out.
 */
@NeedsDatabase
@Path("/api/v1/certificates")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "certificates")
@APIResponse(responseCode = "401", description = "Missing or wrong bearer token",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "503", description = "The configuration database is unreachable, or (uploads) there is "
        + "no secret key to encrypt private keys with",
        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class CertificateResource {

    private final CertificateService service;

    public CertificateResource(CertificateService service) {
        this.service = service;
    }

    @GET
    @Operation(summary = "List certificates, soonest expiry first")
    @APIResponse(responseCode = "200", description = "Every stored certificate, without keys",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = CertificateView.class)))
    public List<CertificateView> list() {
        return service.list();
    }

    @POST
    @Operation(summary = "Upload a certificate and its private key", description = "Checked before it is stored: "
            + "the key belongs to the leaf, the chain is in order, the leaf is valid now and names a host, the key "
            + "is RSA of at least 2048 bits or ECDSA P-256/P-384. The key is stored encrypted.")
    @APIResponse(responseCode = "201", description = "Stored; Location names it",
            headers = @Header(name = "Location", description = "URL of the new certificate",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = CertificateView.class)))
    @APIResponse(responseCode = "400", description = "Invalid field(s), each named in errors[]",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "The body is larger than the API's limit "
            + "(portico.admin.max-body-size)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "415", description = "The body is not sent as application/json",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response create(@RequestBody(required = true,
                                   content = @Content(schema = @Schema(implementation = CertificateUpload.class)))
                           JsonNode upload,
                           @Context UriInfo uri) {
        CertificateView view = service.create(upload);
        return Response.created(uri.getAbsolutePathBuilder().path(view.id().toString()).build()).entity(view).build();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a certificate's details (never its key)")
    @APIResponse(responseCode = "200", description = "The certificate",
            content = @Content(schema = @Schema(implementation = CertificateView.class)))
    @APIResponse(responseCode = "404", description = "No such certificate",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public CertificateView get(@PathParam("id") UUID id) {
        return service.get(id);
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Delete a certificate no vhost uses")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such certificate",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = "Vhosts use it; they are named in the detail",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response delete(@PathParam("id") UUID id) {
        service.delete(id);
        return Response.noContent().build();
    }
}
