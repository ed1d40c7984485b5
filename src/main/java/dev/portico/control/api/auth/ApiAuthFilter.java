package dev.portico.control.api.auth;

import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.Problem;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Every {@code /api} call needs {@code Authorization: Bearer <token>} or a valid dashboard session cookie
 * ({@link SessionCookies}); health and metrics live on another port, and signing in ({@code POST /api/v1/session})
 * needs neither. When an {@code Authorization} header is sent, it alone decides. The bearer scheme is matched
 * case-insensitively (RFC 9110 section 11.1) and the token is taken without the spaces around it.
 * <p>
 * A cookie is sent by the browser on its own, so a call it authenticates must prove it comes from the dashboard's
 * page: an {@code Origin} header must name the management port's own origin, and a state-changing method must carry
 * the session's CSRF token in {@value #CSRF_HEADER}. {@code SameSite=Strict} alone would not do: sites are
 * compared without their port, so a page served by the data plane on the same host is "same-site".
 */
public class ApiAuthFilter {

    public static final String CSRF_HEADER = "X-Portico-Csrf";
    /** A sign-in body is {@code {"token": "..."}}: anything declared longer is refused before it is read. */
    static final long MAX_SIGN_IN_BODY = 4096;

    private static final String SCHEME = "Bearer";
    private static final Set<String> SAFE_METHODS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

    private final AdminToken token;
    private final SessionCookies cookies;
    private final DashboardSettings settings;

    public ApiAuthFilter(AdminToken token, SessionCookies cookies, DashboardSettings settings) {
        this.token = token;
        this.cookies = cookies;
        this.settings = settings;
    }

    /** First of the filters: nothing about a request (not even its body size) is answered before the token. */
    @ServerRequestFilter(preMatching = true, priority = Priorities.AUTHENTICATION)
    public Response authenticate(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/api")) {
            return null;
        }
        if (path.equals(SessionResource.PATH) && request.getMethod().equals(HttpMethod.POST)) {
            return signIn(request, path);
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        Cookie cookie = request.getCookies().get(SessionCookies.NAME);
        if (header == null && cookie != null) {
            return withSession(request, cookie.getValue(), path);
        }
        String detail = failure(header);
        return detail == null ? null : unauthorized(detail, path).build();
    }

    /** Signing in needs no credentials, but comes from the dashboard's own origin and has a small body. */
    private Response signIn(ContainerRequestContext request, String path) {
        Response foreign = foreignOrigin(request, path);
        if (foreign != null) {
            return foreign;
        }
        if (declaredLength(request.getHeaderString(HttpHeaders.CONTENT_LENGTH)) > MAX_SIGN_IN_BODY) {
            throw ApiProblem.bodyTooLarge(MAX_SIGN_IN_BODY);
        }
        return null;
    }

    /** The declared body length, 0 without one; one too large for a long (Netty refused any other) is too large. */
    private static long declaredLength(String contentLength) {
        try {
            return contentLength == null ? 0 : Long.parseLong(contentLength.strip());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private Response withSession(ContainerRequestContext request, String value, String path) {
        Optional<DashboardSession> session = cookies.verify(value, Instant.now());
        if (session.isEmpty()) {
            return unauthorized("The session cookie is not valid: it expired, was signed out, was altered, or the "
                    + "admin token changed. Sign in again", path)
                    .header(HttpHeaders.SET_COOKIE, cookies.clearCookie(request.getSecurityContext().isSecure()))
                    .build();
        }
        Response foreign = foreignOrigin(request, path);
        if (foreign != null) {
            return foreign;
        }
        if (!SAFE_METHODS.contains(request.getMethod())
                && !cookies.csrfMatches(session.get(), request.getHeaderString(CSRF_HEADER))) {
            return problem(403, "csrf", "CSRF check failed", request.getHeaderString(CSRF_HEADER) == null
                    ? "A " + request.getMethod() + " made with the session cookie needs the " + CSRF_HEADER
                    + " header (the csrfToken of the session)"
                    : "The " + CSRF_HEADER + " header is not this session's CSRF token", path).build();
        }
        return null;
    }

    /** A 403 when the request names an origin other than the management port's own; null otherwise. */
    private Response foreignOrigin(ContainerRequestContext request, String path) {
        String origin = request.getHeaderString("Origin");
        if (origin == null) {
            return null;
        }
        String own = settings.publicOrigin().map(ApiAuthFilter::normalised)
                .orElseGet(() -> normalised(request.getUriInfo().getRequestUri().toString()));
        if (own != null && own.equals(normalised(origin))) {
            return null;
        }
        return problem(403, "csrf", "CSRF check failed", "The request comes from another origin ("
                + printable(origin) + "); the dashboard calls this API only from its own", path).build();
    }

    /** {@code scheme://host[:port]} in lower case without a default port, or null when it is not such a URL. */
    static String normalised(String url) {
        try {
            URI uri = URI.create(url.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                return null;
            }
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            boolean defaultPort = port == -1 || (scheme.equals("http") && port == 80)
                    || (scheme.equals("https") && port == 443);
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Why the header does not authenticate, in words for the client; null when it does. */
    private String failure(String header) {
        if (header == null || header.isBlank()) {
            return "This API needs 'Authorization: Bearer <token>' (or the dashboard's session cookie)";
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

    /** A 401 with the bearer challenge RFC 9110 section 15.5.2 requires. */
    static Response.ResponseBuilder unauthorized(String detail, String path) {
        return problem(401, "unauthorized", "Unauthorized", detail, path)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"portico\"");
    }

    static Response.ResponseBuilder problem(int status, String type, String title, String detail, String path) {
        return Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem("urn:portico:problem:" + type, title, status, detail, path, List.of()));
    }

    /** A client's text cut short and without control characters or spaces: it goes back into a response. */
    private static String printable(String text) {
        String cut = text.length() > 20 ? text.substring(0, 20) + "..." : text;
        return cut.replaceAll("[^\\x21-\\x7e]", "?");
    }
}
