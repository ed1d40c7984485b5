package dev.portico.control.api.auth;

import dev.portico.control.api.error.Problem;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.List;

/**
 * Every {@code /api} call needs {@code Authorization: Bearer <token>}; health and metrics live on another port. The
 * scheme is matched case-insensitively (RFC 9110 section 11.1: {@code bearer} and {@code BEARER} are the same
 * scheme) and the token is taken without the spaces around it.
 */
public class BearerTokenFilter {

    private static final String SCHEME = "Bearer";

    private final AdminToken token;

    public BearerTokenFilter(AdminToken token) {
        this.token = token;
    }

    /** First of the filters: nothing about a request (not even its body size) is answered before the token. */
    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION)
    public Response authenticate(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/api")) {
            return null;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        String detail = failure(header);
        if (detail == null) {
            return null;
        }
        return Response.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"portico\"")
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem("urn:portico:problem:unauthorized", "Unauthorized", 401, detail, path, List.of()))
                .build();
    }

    /** Why the header does not authenticate, in words for the client; null when it does. */
    private String failure(String header) {
        if (header == null || header.isBlank()) {
            return "This API needs 'Authorization: Bearer <token>'";
        }
        String value = header.strip();
        int space = value.indexOf(' ');
        String scheme = space < 0 ? value : value.substring(0, space);
        if (!scheme.equalsIgnoreCase(SCHEME)) {
            return "The Authorization header uses the '" + printable(scheme) + "' scheme; this API takes "
                    + "'Authorization: Bearer <token>'";
        }
        String presented = space < 0 ? "" : value.substring(space + 1).strip();
        if (presented.isEmpty()) {
            return "The Authorization header has the Bearer scheme but no token";
        }
        return token.matches(presented) ? null : "The bearer token is not valid";
    }

    /** The scheme as the client sent it, cut short and without control characters: it goes back into a response. */
    private static String printable(String scheme) {
        String cut = scheme.length() > 20 ? scheme.substring(0, 20) + "..." : scheme;
        return cut.replaceAll("[^\\x21-\\x7e]", "?");
    }
}
