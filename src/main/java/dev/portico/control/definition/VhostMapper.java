package dev.portico.control.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.portico.control.definition.VhostDefinition.AccessLogDefinition;
import dev.portico.control.definition.VhostDefinition.HeaderRulesDefinition;
import dev.portico.vhost.AccessLogSpec;
import dev.portico.vhost.HeaderRules;
import dev.portico.vhost.RouteSpec;
import dev.portico.vhost.UpstreamProtocol;
import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.WwwRedirect;
import dev.portico.vhost.VhostSpec;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Converts between the stored JSON, the API's {@link VhostDefinition} and the compiler's {@link VhostSpec}. */
public final class VhostMapper {

    // A private mapper: the stored format must not change when someone tunes the API's JSON settings.
    private static final ObjectMapper STORAGE = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private VhostMapper() {
    }

    public static String toJson(VhostDefinition definition) {
        try {
            return STORAGE.writeValueAsString(definition);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a vhost definition", e);
        }
    }

    static VhostDefinition fromJson(String json) {
        try {
            return STORAGE.readValue(json, VhostDefinition.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored vhost definition is not readable", e);
        }
    }

    /** The API's view of a stored definition ({@code storedJson}, as {@link #toJson} wrote it) and its identity. */
    public static VhostView toView(UUID id, long version, String storedJson, Instant createdAt, Instant updatedAt) {
        return VhostView.of(id, version, fromJson(storedJson), createdAt, updatedAt);
    }

    /** For a normalised stored definition; parsing cannot fail for one that passed {@link VhostValidator}. */
    public static VhostSpec toSpec(UUID id, long version, String storedJson) {
        return toSpec(id, version, fromJson(storedJson));
    }

    public static VhostSpec toSpec(UUID id, long version, VhostDefinition d) {
        List<UpstreamSpec> upstreams = d.upstreams() == null ? List.of() : d.upstreams().stream()
                .map(u -> UpstreamUrl.parse(u.url(), u.weight(), UpstreamTlsCheck.toSpec(u.tls()),
                        u.protocol() == null ? null : UpstreamProtocol.ofToken(u.protocol()))
                        .asBackup(u.backup() != null && u.backup()))
                .toList();
        return new VhostSpec(id, d.name(), version, d.hostnames(), d.enabled(), d.preserveHost(), upstreams,
                DurationText.parse(d.connectTimeout()), DurationText.parse(d.readTimeout()), d.securityHeaders(),
                rules(d.requestHeaders()), rules(d.responseHeaders()), accessLog(d.accessLog()),
                CacheSettingsCheck.toSpec(d.cache()), StaticSettingsCheck.toSpec(d.staticFiles()),
                CompressionSettingsCheck.toSpec(d.compression()), RequestBodyLimitText.toBytes(d.maxRequestBody()),
                TlsSettingsCheck.toSpec(d.tls()), d.websocket() == null || d.websocket(),
                d.websocketIdleTimeout() == null ? null
                        : DurationText.parse(d.websocketIdleTimeout(), VhostValidator.MAX_WEBSOCKET_IDLE_TIMEOUT,
                                false),
                d.maxInFlight(),
                RetrySettingsCheck.toSpec(d.retry()),
                HealthCheckSettingsCheck.toSpec(d.healthCheck()),
                OutlierDetectionSettingsCheck.toSpec(d.outlierDetection()),
                CircuitBreakerSettingsCheck.toSpec(d.circuitBreaker()),
                BalanceSettingsCheck.toSpec(d),
                UpstreamLimitsSettingsCheck.toSpec(d.upstreamLimits()),
                d.wwwRedirect() == null ? null : WwwRedirect.ofToken(d.wwwRedirect()),
                AccessSettingsCheck.toSpec(d.access()),
                BasicAuthSettingsCheck.toSpec(d.basicAuth()),
                RateLimitSettingsCheck.toSpec(d.rateLimit()),
                ForwardAuthSettingsCheck.toSpec(d.forwardAuth()),
                JwtSettingsCheck.toSpec(d.jwt()),
                CorsSettingsCheck.toSpec(d.cors()),
                ErrorPagesSettingsCheck.toSpec(d.errorPages()),
                d.routes() == null ? List.of()
                        : d.routes().stream().map(route -> routeSpec(id, version, d, route)).toList());
    }

    /** A normalised route: its conditions and actions, and the vhost's settings with its overrides. */
    private static RouteSpec routeSpec(UUID id, long version, VhostDefinition vhost, RouteDefinition route) {
        RouteDefinition.MatchDefinition m = route.match();
        RouteSpec.Match match = new RouteSpec.Match(m.path(), m.pathRegex(), m.methods(), m.headers(), m.query(),
                m.caseSensitive() != null && m.caseSensitive());
        RouteSpec.Rewrite rewrite = route.rewrite() != null
                ? new RouteSpec.Rewrite(null, null, route.rewrite().regex(), route.rewrite().replacement())
                : route.stripPrefix() != null || route.addPrefix() != null
                ? new RouteSpec.Rewrite(route.stripPrefix(), route.addPrefix(), null, null) : null;
        RouteSpec.Redirect redirect = route.redirect() == null ? null
                : new RouteSpec.Redirect(route.redirect().status(), route.redirect().location());
        RouteSpec.Respond respond = route.respond() == null ? null : new RouteSpec.Respond(route.respond().status(),
                route.respond().body(), route.respond().contentType());
        return new RouteSpec(route.name(), match, rewrite, redirect, respond,
                toSpec(id, version, RouteOverrides.merged(vhost, route)));
    }

    private static AccessLogSpec accessLog(AccessLogDefinition d) {
        AccessLogDefinition n = AccessLogDefinition.normalised(d);
        return new AccessLogSpec(n.enabled(), n.redactQuery());
    }

    private static HeaderRules rules(HeaderRulesDefinition d) {
        if (d == null) {
            return HeaderRules.NONE;
        }
        return new HeaderRules(d.set() == null ? java.util.Map.of() : d.set(),
                d.add() == null ? java.util.Map.of() : d.add(),
                d.remove() == null ? List.of() : d.remove());
    }
}
