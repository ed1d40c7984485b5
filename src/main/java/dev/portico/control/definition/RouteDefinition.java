package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.portico.control.definition.VhostDefinition.CacheDefinition;
import dev.portico.control.definition.VhostDefinition.CompressionDefinition;
import dev.portico.control.definition.VhostDefinition.HeaderRulesDefinition;
import dev.portico.control.definition.VhostDefinition.RetryDefinition;
import dev.portico.control.definition.VhostDefinition.StaticDefinition;
import dev.portico.control.definition.VhostDefinition.StickyDefinition;
import dev.portico.control.definition.VhostDefinition.UpstreamDefinition;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One of a vhost's {@code routes}, as clients write it: conditions, what the route does, and settings of the vhost it
 * overrides. A field left out (or null) keeps the vhost's value; stored and shown with the overrides normalised.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Route", description = "Routes are tried in order; the first whose match holds serves the request "
        + "with the vhost's settings and its own overrides (a field left out keeps the vhost's). A route sends to "
        + "its own upstreams or static root, redirects, responds, or, with none of these, serves as the vhost does "
        + "with its overrides (a password on /admin/*). A request no route takes is served by the vhost")
public record RouteDefinition(
        @Schema(description = "1-63 of A-Z a-z 0-9 . _ -, unique in the vhost; default route-N by position",
                example = "api")
        String name,
        @Schema(description = "Which requests the route takes; every condition given must hold", required = true)
        MatchDefinition match,
        @Schema(description = "A leading part removed from the path sent upstream or looked up under static, e.g. "
                + "/api: /api/x becomes /x", example = "/api")
        String stripPrefix,
        @Schema(description = "A part put in front of the path (after stripPrefix), e.g. /v2", example = "/v2")
        String addPrefix,
        @Schema(description = "A path rewrite by an RE2 expression; not with stripPrefix or addPrefix")
        RewriteDefinition rewrite,
        @Schema(description = "Answer with a redirect instead of serving")
        RedirectDefinition redirect,
        @Schema(description = "Answer with a fixed response instead of serving")
        RespondDefinition respond,
        @Schema(description = "The route's own upstreams (its own group, balanced and checked apart); with no static, "
                + "the route serves no files")
        List<UpstreamDefinition> upstreams,
        @Schema(description = "The route's own static files; with no upstreams, a path no file matches is a 404")
        @JsonProperty("static")
        StaticDefinition staticFiles,
        @Schema(description = "Overrides the vhost's connectTimeout") String connectTimeout,
        @Schema(description = "Overrides the vhost's readTimeout") String readTimeout,
        @Schema(description = "Overrides the vhost's maxRequestBody") String maxRequestBody,
        @Schema(description = "Overrides the vhost's preserveHost") Boolean preserveHost,
        @Schema(description = "Overrides the vhost's websocket") Boolean websocket,
        @Schema(description = "Replaces the vhost's requestHeaders") HeaderRulesDefinition requestHeaders,
        @Schema(description = "Replaces the vhost's responseHeaders") HeaderRulesDefinition responseHeaders,
        @Schema(description = "Replaces the vhost's cache settings") CacheDefinition cache,
        @Schema(description = "Replaces the vhost's compression settings") CompressionDefinition compression,
        @Schema(description = "Replaces the vhost's retry rules") RetryDefinition retry,
        @Schema(description = "Replaces the vhost's active health check (of the route's upstreams)")
        HealthCheckDefinition healthCheck,
        @Schema(description = "Overrides the vhost's balance") String balance,
        @Schema(description = "Overrides the vhost's balanceBy") String balanceBy,
        @Schema(description = "Overrides the vhost's hashOn") String hashOn,
        @Schema(description = "Overrides the vhost's sticky cookie") StickyDefinition sticky,
        @Schema(description = "Replaces the vhost's IP rules for the route's requests") AccessDefinition access,
        @Schema(description = "Replaces the vhost's basic authentication for the route's requests")
        BasicAuthDefinition basicAuth,
        @Schema(description = "Replaces the vhost's rate limit for the route's requests (the route's own buckets)")
        RateLimitDefinition rateLimit,
        @Schema(description = "Replaces the vhost's forward auth for the route's requests")
        ForwardAuthDefinition forwardAuth,
        @Schema(description = "Replaces the vhost's bearer-token check for the route's requests") JwtDefinition jwt,
        @Schema(description = "Replaces the vhost's CORS policy for the route's requests (allowOrigins [] turns it "
                + "off there)") CorsDefinition cors,
        @Schema(description = "Replaces the vhost's error pages for the route's requests ({} lifts them there)")
        ErrorPagesDefinition errorPages) {

    /** The fields that belong to the route itself; every other field overrides the vhost's field of the same name. */
    static final Set<String> OWN_FIELDS = Set.of("name", "match", "stripPrefix", "addPrefix", "rewrite", "redirect",
            "respond");

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "RouteMatch")
    public record MatchDefinition(
            @Schema(description = "/exact, /prefix/* (the prefix itself and everything below), or a glob whose * "
                    + "matches within one segment (/files/*.pdf). Matched against the normalised path: decoded once, "
                    + "dot segments resolved, // merged, ;parameters dropped", example = "/api/*")
            String path,
            @Schema(description = "An RE2 expression searched in the normalised path (anchor it with ^ and $); "
                    + "not with path", example = "^/u/[0-9]+$")
            String pathRegex,
            @Schema(description = "Methods taken; any when left out", example = "[\"GET\", \"HEAD\"]")
            List<String> methods,
            @Schema(description = "Header values required, by name; * for present with any value",
                    example = "{\"X-Beta\": \"1\"}")
            Map<String, String> headers,
            @Schema(description = "Query parameter values required, by name; * for present with any value",
                    example = "{\"version\": \"2\"}")
            Map<String, String> query,
            @Schema(description = "Compare the path's case (off: /ADMIN is /admin)", defaultValue = "false")
            Boolean caseSensitive) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "RouteRewrite")
    public record RewriteDefinition(
            @Schema(description = "RE2 expression over the normalised path", example = "^/u/([0-9]+)$",
                    required = true)
            String regex,
            @Schema(description = "What each match becomes; $1..$9 are groups, percent-encoded",
                    example = "/users/$1", required = true)
            String replacement) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "RouteRedirect")
    public record RedirectDefinition(
            @Schema(description = "301, 302, 303, 307 or 308", defaultValue = "302") Integer status,
            @Schema(description = "The target; $host, $path (what the pattern's last * matched) and $query are "
                    + "filled in (?$query goes when there is no query)", example = "/new/$path?$query",
                    required = true)
            String location) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "RouteRespond")
    public record RespondDefinition(
            @Schema(description = "200-599", defaultValue = "200") Integer status,
            @Schema(description = "At most 64 KiB of text", defaultValue = "") String body,
            @Schema(description = "The body's type", defaultValue = "text/plain; charset=utf-8") String contentType) {
    }
}
