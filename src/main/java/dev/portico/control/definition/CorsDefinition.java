package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** Cross-origin resource sharing for a vhost or a route, as clients write it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Cors", description = "CORS answered by Portico: preflights (OPTIONS with Origin and "
        + "Access-Control-Request-Method) get 204 cors_preflight, or 403 cors_refused when the origin, method or a "
        + "header is not allowed, before any authentication; other requests from an allowed origin get "
        + "Access-Control-Allow-Origin and the rest on their response. Access-Control-* fields the upstream sends are "
        + "replaced: the vhost's policy rules")
public record CorsDefinition(
        @Schema(description = "Origins allowed: scheme://host[:port], scheme://*.suffix (one or more labels in "
                + "front of suffix), or * alone for any origin (not with allowCredentials); at most 100",
                example = "[\"https://app.example.com\", \"https://*.example.com\"]", required = true)
        List<String> allowOrigins,
        @Schema(description = "Methods a preflight may ask for, or * for any (not with allowCredentials); GET, HEAD "
                + "and POST need no preflight", defaultValue = "[\"GET\", \"HEAD\", \"POST\"]")
        List<String> allowMethods,
        @Schema(description = "Request header names a preflight may ask for, or * for any but Authorization (not "
                + "with allowCredentials)", example = "[\"Content-Type\", \"Authorization\"]")
        List<String> allowHeaders,
        @Schema(description = "Response header names scripts may read beyond the safelisted ones",
                example = "[\"X-Request-Id\"]")
        List<String> exposeHeaders,
        @Schema(description = "Let requests with cookies or HTTP authentication through "
                + "(Access-Control-Allow-Credentials: true)", defaultValue = "false")
        Boolean allowCredentials,
        @Schema(description = "How long a browser may keep a preflight's answer, e.g. 10m (at most 1d; browsers cap it "
                + "lower: Chromium at 2h). Left out: no Access-Control-Max-Age, browsers keep it 5s", example = "10m")
        String maxAge) {
}
