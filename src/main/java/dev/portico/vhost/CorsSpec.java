package dev.portico.vhost;

import java.time.Duration;
import java.util.List;

/**
 * A vhost's or route's CORS policy, normalised: origins in lower case without a default port, methods in upper case,
 * header names as written. {@code "*"} alone in a list means any.
 *
 * @param maxAge how long a browser may keep a preflight's answer, or null to send no {@code Access-Control-Max-Age}
 */
public record CorsSpec(List<String> allowOrigins, List<String> allowMethods, List<String> allowHeaders,
                       List<String> exposeHeaders, boolean allowCredentials, Duration maxAge) {

    public static final CorsSpec NONE = new CorsSpec(List.of(), List.of(), List.of(), List.of(), false, null);

    public CorsSpec {
        allowOrigins = List.copyOf(allowOrigins);
        allowMethods = List.copyOf(allowMethods);
        allowHeaders = List.copyOf(allowHeaders);
        exposeHeaders = List.copyOf(exposeHeaders);
    }

    /** Whether the vhost answers CORS at all. */
    public boolean isEmpty() {
        return allowOrigins.isEmpty();
    }
}
