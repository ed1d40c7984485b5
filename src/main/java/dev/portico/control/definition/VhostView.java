package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.AccessLogDefinition;
import dev.portico.control.definition.VhostDefinition.CacheDefinition;
import dev.portico.control.definition.VhostDefinition.CompressionDefinition;
import dev.portico.control.definition.VhostDefinition.HeaderRulesDefinition;
import dev.portico.control.definition.VhostDefinition.StaticDefinition;
import dev.portico.control.definition.VhostDefinition.UpstreamDefinition;
import dev.portico.vhost.UpstreamProtocol;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A stored vhost as the API returns it: the normalised definition plus identity and version. */
@Schema(name = "Vhost")
public record VhostView(
        UUID id,
        @Schema(description = "1 when created, then one more with every change; also the ETag. Send it back in "
                + "If-Match to update safely")
        long version,
        String name,
        List<String> hostnames,
        boolean enabled,
        boolean preserveHost,
        List<UpstreamDefinition> upstreams,
        String connectTimeout,
        String readTimeout,
        @Schema(description = "The largest request body (a size, or unlimited); null when the vhost takes the global "
                + "default, portico.dataplane.max-request-body")
        String maxRequestBody,
        boolean securityHeaders,
        HeaderRulesDefinition requestHeaders,
        HeaderRulesDefinition responseHeaders,
        AccessLogDefinition accessLog,
        CacheDefinition cache,
        @Schema(description = "The static web service with every default filled in, or null when the vhost serves "
                + "no files")
        @JsonProperty("static")
        StaticDefinition staticFiles,
        CompressionDefinition compression,
        VhostDefinition.TlsDefinition tls,
        boolean websocket,
        String websocketIdleTimeout,
        @Schema(description = "The most requests of this vhost in flight at once; null for no limit")
        Integer maxInFlight,
        VhostDefinition.RetryDefinition retry,
        @Schema(description = "The active health check with every default filled in, or null when there is none")
        HealthCheckDefinition healthCheck,
        OutlierDetectionDefinition outlierDetection,
        @Schema(description = "The circuit breaker with every default filled in, or null when there is none")
        CircuitBreakerDefinition circuitBreaker,
        String balance,
        @Schema(description = "random_two's comparison; null for other policies")
        String balanceBy,
        @Schema(description = "What hash hashes; null for other policies")
        String hashOn,
        @Schema(description = "The sticky cookie; null for other policies")
        VhostDefinition.StickyDefinition sticky,
        String slowStart,
        @Schema(description = "The queue for a busy upstream as the vhost sets it; null (or a field left out) for "
                + "the defaults: portico.upstream.max-pending, and the connectTimeout")
        UpstreamLimitsDefinition upstreamLimits,
        @Schema(description = "to_www, to_apex, or null when neither form is redirected")
        String wwwRedirect,
        @Schema(description = "The IP rules in their normal form (network/prefix); null for none")
        AccessDefinition access,
        @Schema(description = "Basic authentication with every user's hash (never a password); null for none")
        BasicAuthDefinition basicAuth,
        @Schema(description = "The rate limit with its defaults filled in; null for none")
        RateLimitDefinition rateLimit,
        @Schema(description = "The forward auth with its defaults filled in; null for none")
        ForwardAuthDefinition forwardAuth,
        @Schema(description = "The bearer-token check with its defaults filled in; null for none")
        JwtDefinition jwt,
        @Schema(description = "The CORS policy normalised (origins in lower case, no default port); null for none")
        CorsDefinition cors,
        @Schema(description = "The error pages normalised (statuses sorted); null for none")
        ErrorPagesDefinition errorPages,
        @Schema(description = "The routes with their overrides normalised; empty for none")
        List<RouteDefinition> routes,
        Instant createdAt,
        Instant updatedAt,
        @Schema(description = "What is accepted but will not work as it stands, such as a static.root that does not "
                + "exist yet; checked on every read, so a warning goes once the cause is fixed. Ignored when sent back")
        List<FieldError> warnings) {

    static VhostView of(UUID id, long version, VhostDefinition d, Instant createdAt, Instant updatedAt) {
        BalanceSettingsCheck.Normalised balance = BalanceSettingsCheck.normalised(d);
        return new VhostView(id, version, d.name(), d.hostnames(), d.enabled(), d.preserveHost(),
                withProtocols(d.upstreams()), d.connectTimeout(), d.readTimeout(), d.maxRequestBody(), d.securityHeaders(),
                HeaderRulesDefinition.inNameOrder(d.requestHeaders()),
                HeaderRulesDefinition.inNameOrder(d.responseHeaders()), AccessLogDefinition.normalised(d.accessLog()),
                CacheSettingsCheck.normalised(d.cache()), d.staticFiles(),
                CompressionSettingsCheck.normalised(d.compression()), TlsSettingsCheck.normalised(d.tls()),
                // Vhosts stored before WebSocket settings existed read with their defaults.
                d.websocket() == null || d.websocket(),
                d.websocketIdleTimeout() == null ? VhostValidator.DEFAULT_WEBSOCKET_IDLE_TIMEOUT
                        : d.websocketIdleTimeout(),
                d.maxInFlight(),
                RetrySettingsCheck.normalised(d.retry()),
                d.healthCheck(),
                OutlierDetectionSettingsCheck.normalised(d.outlierDetection()),
                d.circuitBreaker(),
                balance.balance(),
                balance.balanceBy(),
                balance.hashOn(),
                balance.sticky(),
                balance.slowStart(),
                d.upstreamLimits(),
                d.wwwRedirect(),
                d.access(),
                d.basicAuth(),
                d.rateLimit(),
                d.forwardAuth(),
                d.jwt(),
                d.cors(),
                d.errorPages(),
                d.routes() == null ? List.of() : d.routes(),
                createdAt,
                updatedAt,
                StaticRootProbe.warnings(d));
    }

    /** Vhosts stored before upstreams had a protocol read as what they are: http/1.1, primaries. */
    private static List<UpstreamDefinition> withProtocols(List<UpstreamDefinition> stored) {
        if (stored == null) {
            return null;
        }
        return stored.stream().map(u -> u == null || (u.protocol() != null && u.backup() != null) ? u
                : new UpstreamDefinition(u.url(), u.weight(), u.tls(),
                        u.protocol() == null ? UpstreamProtocol.HTTP_1_1.token() : u.protocol(),
                        // Nor a backup flag: they had none.
                        u.backup() != null && u.backup())).toList();
    }
}
