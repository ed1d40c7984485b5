package dev.portico.control.api;

import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeIn;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/** OpenAPI description of the management API (the document is committed as {@code openapi/openapi.yaml}). */
@OpenAPIDefinition(
        info = @Info(title = "Portico management API", version = "v1",
                description = "Manage the virtual hosts of a Portico reverse proxy. Every call needs "
                        + "'Authorization: Bearer <token>', or the dashboard's session cookie (POST /api/v1/session); "
                        + "a POST, PUT, PATCH or DELETE made with the cookie also needs the session's CSRF token in "
                        + "X-Portico-Csrf, and an Origin header, when sent, must be the management port's own. "
                        + "Errors are RFC 9457 application/problem+json.",
                license = @License(name = "Apache-2.0")),
        security = {@SecurityRequirement(name = "bearer"), @SecurityRequirement(name = "session")},
        components = @Components(headers = @Header(name = "ETag",
                description = "The vhost's version as a strong entity tag, e.g. \"3\"; send it in If-Match",
                schema = @Schema(type = SchemaType.STRING))))
@SecurityScheme(securitySchemeName = "bearer", type = SecuritySchemeType.HTTP, scheme = "bearer")
@SecurityScheme(securitySchemeName = "session", type = SecuritySchemeType.APIKEY, in = SecuritySchemeIn.COOKIE,
        apiKeyName = "portico_session", description = "The dashboard's session cookie, set by POST /api/v1/session. "
        + "State-changing calls made with it need X-Portico-Csrf: <csrfToken of the session>, else 403 "
        + "urn:portico:problem:csrf")
public class PorticoApi extends Application {
}
