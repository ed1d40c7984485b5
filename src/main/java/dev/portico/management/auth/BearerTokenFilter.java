package dev.portico.management.auth;

import dev.portico.management.error.Problem;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.List;

/** Every {@code /api} call needs {@code Authorization: Bearer <token>}; health and metrics live on another port. */
public class BearerTokenFilter {

    private static final String SCHEME = "Bearer ";

    private final AdminToken token;

    public BearerTokenFilter(AdminToken token) {
        this.token = token;
    }

    @ServerRequestFilter(preMatching = true)
    public Response authenticate(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/api")) {
            return null;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header != null && header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && token.matches(header.substring(SCHEME.length()).trim())) {
            return null;
        }
        String detail = header == null ? "This API needs 'Authorization: Bearer <token>'"
                : "The bearer token is not valid";
        return Response.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"portico\"")
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem("urn:portico:problem:unauthorized", "Unauthorized", 401, detail, path, List.of()))
                .build();
    }
}
