package dev.portico.control.api.auth;

import dev.portico.control.api.error.Problem;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code /api/v1/session}: the dashboard's sign-in. The admin token is exchanged once for an {@code HttpOnly}
 * session cookie, so the page's scripts never hold the token; the answer carries the CSRF token that state-changing
 * calls made with the cookie must send in {@value ApiAuthFilter#CSRF_HEADER}.
 */
@Path(SessionResource.PATH)
@Tag(name = "session", description = "Dashboard sign-in: a session cookie instead of the bearer token")
public class SessionResource {

    static final String PATH = "/api/v1/session";

    /** The sign-in body. */
    @Schema(name = "SignIn")
    public record SignIn(@Schema(description = "The admin token (PORTICO_ADMIN_TOKEN)", required = true)
                         String token) {
    }

    /** What a signed-in page needs to know. */
    @Schema(name = "Session")
    public record SessionView(
            @Schema(description = "When the session ends; sign in again then") Instant expiresAt,
            @Schema(description = "Send as the " + ApiAuthFilter.CSRF_HEADER + " header on every POST, PUT, PATCH "
                    + "and DELETE made with the session cookie") String csrfToken) {
    }

    private final SessionCookies cookies;
    private final SessionRevocations revocations;
    private final SignInThrottle throttle;
    private final AdminToken token;

    public SessionResource(SessionCookies cookies, SessionRevocations revocations, SignInThrottle throttle,
                           AdminToken token) {
        this.cookies = cookies;
        this.revocations = revocations;
        this.throttle = throttle;
        this.token = token;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @SecurityRequirements
    @Operation(summary = "Sign in with the admin token: sets the " + SessionCookies.NAME + " cookie",
            description = "The cookie is HttpOnly, SameSite=Strict, Path=/, lasts portico.dashboard.session-lifetime "
                    + "(and is Secure over TLS). More than portico.dashboard.max-sign-in-failures failed sign-ins "
                    + "from one address (IPv6: one /64) within a minute are answered 429 with Retry-After, whatever "
                    + "the token, until the oldest is a minute old.")
    @APIResponse(responseCode = "200", description = "Signed in",
            headers = @Header(name = "Set-Cookie", description = SessionCookies.NAME + "=...; Path=/; HttpOnly; "
                    + "SameSite=Strict; Max-Age=<seconds>[; Secure]", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(schema = @Schema(implementation = SessionView.class)))
    @APIResponse(responseCode = "401", description = "Missing or wrong token; no cookie is set",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "429", description = "Too many failed sign-ins from this address",
            headers = @Header(name = "Retry-After", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response signIn(SignIn body, @Context HttpServerRequest http) {
        Instant now = Instant.now();
        String client = http.remoteAddress() == null ? "unknown" : http.remoteAddress().hostAddress();
        Duration wait = throttle.tryAttempt(client, now);
        if (!wait.isZero()) {
            long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
            return ApiAuthFilter.problem(429, "too-many-sign-ins", "Too Many Requests", "Too many failed sign-ins "
                    + "from this address; try again in " + seconds + " s", PATH)
                    .header(HttpHeaders.RETRY_AFTER, seconds).build();
        }
        if (body == null || body.token() == null || body.token().isBlank() || !token.matches(body.token().strip())) {
            return ApiAuthFilter.unauthorized(body == null || body.token() == null || body.token().isBlank()
                    ? "The body must be {\"token\": \"<admin token>\"}" : "The token is not valid", PATH).build();
        }
        throttle.succeeded(client, now);
        DashboardSession session = cookies.issue(now);
        return Response.ok(view(session))
                .header(HttpHeaders.SET_COOKIE, cookies.setCookie(session, overTls(http), now))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .build();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @SecurityRequirement(name = "session")
    @Operation(summary = "The current session, with its CSRF token again (for a reloaded page)")
    @APIResponse(responseCode = "200", description = "Signed in",
            content = @Content(schema = @Schema(implementation = SessionView.class)))
    @APIResponse(responseCode = "401", description = "No valid session cookie: expired, signed out, altered, or "
            + "issued under another admin token",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Response current(@Parameter(hidden = true) @CookieParam(SessionCookies.NAME) String cookie) {
        Optional<DashboardSession> session = cookies.verify(cookie, Instant.now());
        if (session.isEmpty()) {
            return ApiAuthFilter.unauthorized("There is no valid dashboard session; sign in with POST " + PATH, PATH)
                    .build();
        }
        return Response.ok(view(session.get())).header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    @DELETE
    @SecurityRequirement(name = "session")
    @Operation(summary = "Sign out: the cookie is cleared and the session refused from now on, on every replica",
            description = "Needs the " + ApiAuthFilter.CSRF_HEADER + " header like every state-changing call made "
                    + "with the cookie. Other replicas sharing the database refuse the session within milliseconds "
                    + "(NOTIFY), or within portico.reload.poll-interval when their listener is away; during a "
                    + "database outage only this replica does, until the database is back.")
    @APIResponse(responseCode = "204", description = "Signed out; also when there was no session to end",
            headers = @Header(name = "Set-Cookie", description = SessionCookies.NAME + "=; Max-Age=0; ...",
                    schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "403", description = "Made with the cookie but without its CSRF token, or from "
            + "another origin", content = @Content(mediaType = Problem.MEDIA_TYPE,
            schema = @Schema(implementation = Problem.class)))
    public Response signOut(@Parameter(hidden = true) @CookieParam(SessionCookies.NAME) String cookie,
                            @Context HttpServerRequest http) {
        cookies.verify(cookie, Instant.now()).ifPresent(revocations::revoke);
        return Response.noContent()
                .header(HttpHeaders.SET_COOKIE, cookies.clearCookie(overTls(http)))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .build();
    }

    private SessionView view(DashboardSession session) {
        return new SessionView(session.expiresAt(), cookies.csrfToken(session));
    }

    /** The scheme as Quarkus sees it: TLS here, or at a proxy whose forwarded headers Quarkus is set to trust. */
    private static boolean overTls(HttpServerRequest http) {
        return "https".equalsIgnoreCase(http.scheme());
    }
}
