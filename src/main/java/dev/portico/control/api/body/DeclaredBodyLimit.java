package dev.portico.control.api.body;

import dev.portico.control.api.error.ApiProblem;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses a request whose {@code Content-Length} is over the limit with a 413 problem before its body is read. Runs
 * after {@link dev.portico.control.api.auth.ApiAuthFilter} (a higher priority number), so a client without the
 * token gets 401 whatever it sends, and only an authenticated one learns the limit.
 */
public class DeclaredBodyLimit {

    private final ApiBodyLimit limit;

    public DeclaredBodyLimit(ApiBodyLimit limit) {
        this.limit = limit;
    }

    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION + 1)
    public void check(ContainerRequestContext request) {
        if (declaredLength(request.getHeaderString(HttpHeaders.CONTENT_LENGTH)) > limit.bytes()) {
            throw ApiProblem.bodyTooLarge(limit.bytes());
        }
    }

    /** The declared length, -1 without one; a length too large for a long is over any limit. */
    static long declaredLength(String contentLength) {
        if (contentLength == null) {
            return -1;
        }
        try {
            return Long.parseLong(contentLength.trim());
        } catch (NumberFormatException e) {
            // Netty has already refused anything but digits; this is a number beyond Long.MAX_VALUE.
            return Long.MAX_VALUE;
        }
    }
}
