package dev.portico.control.api;

import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/** OpenAPI description of the management API (the document is committed as {@code openapi/openapi.yaml}). */
@OpenAPIDefinition(
        info = @Info(title = "Portico management API", version = "v1",
                description = "Manage the virtual hosts of a Portico reverse proxy. Every call needs "
                        + "'Authorization: Bearer <token>'. Errors are RFC 9457 application/problem+json.",
                license = @License(name = "Apache-2.0")),
        security = @SecurityRequirement(name = "bearer"),
        components = @Components(headers = @Header(name = "ETag",
                description = "The vhost's version as a strong entity tag, e.g. \"3\"; send it in If-Match",
                schema = @Schema(type = SchemaType.STRING))))
@SecurityScheme(securitySchemeName = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer")
public class PorticoApi extends Application {
}
