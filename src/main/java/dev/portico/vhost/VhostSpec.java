package dev.portico.vhost;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * A validated, normalised vhost as the snapshot compiler consumes it. Hostnames are lower case; a wildcard is
 * written {@code *.suffix} and matches any name ending in {@code .suffix}. {@code staticFiles} is null unless the
 * vhost serves a directory; {@code upstreams} is empty only when it does.
 *
 * @param maxRequestBody the largest request body in bytes, {@code 0} for no limit, or null for the global default
 *                       ({@code portico.dataplane.max-request-body})
 * @param websocket whether HTTP/1.1 {@code Upgrade} requests (WebSocket and other protocols) are forwarded as such
 *                  and tunnelled once the upstream switches; otherwise they go upstream as plain requests
 * @param websocketIdleTimeout how long a tunnel may carry no byte either way before both sides are closed
 * @param maxInFlight the most requests of the vhost in flight at once on this instance, or null for no limit
 * @param retry when a failed upstream attempt is tried again, and the budget of retries
 * @param healthCheck the active health check of the upstreams, or null for none
 * @param outlierDetection passive ejection of upstreams that answer 5xx or fail in a row
 * @param circuitBreaker the breaker over the upstream group, or null for none
 * @param balance how requests are spread over the upstreams; null for {@link BalanceSpec#DEFAULT}
 * @param upstreamLimits the queue for a busy upstream's connections; null for {@link UpstreamLimitsSpec#DEFAULT}
 * @param wwwRedirect which of {@code www.name} and {@code name} requests are redirected to, or null for neither
 * @param access the IP rules on the client address; null for {@link AccessSpec#NONE}
 * @param basicAuth HTTP Basic authentication, or null for none
 * @param rateLimit the token-bucket rate limit, or null for none
 * @param forwardAuth the auth service every request is first put to, or null for none
 * @param jwt the bearer-token check, or null for none
 * @param cors the CORS policy; null for {@link CorsSpec#NONE}
 * @param errorPages the custom error pages; null for {@link ErrorPagesSpec#NONE}
 * @param routes the routes tried before the vhost's own settings, in order; empty for none (and in a route's spec)
 */
public record VhostSpec(
        UUID id,
        String name,
        long version,
        List<String> hostnames,
        boolean enabled,
        boolean preserveHost,
        List<UpstreamSpec> upstreams,
        Duration connectTimeout,
        Duration readTimeout,
        boolean securityHeaders,
        HeaderRules requestHeaders,
        HeaderRules responseHeaders,
        AccessLogSpec accessLog,
        CacheSpec cache,
        StaticSpec staticFiles,
        CompressionSpec compression,
        Long maxRequestBody,
        TlsSpec tls,
        boolean websocket,
        Duration websocketIdleTimeout,
        Integer maxInFlight,
        RetrySpec retry,
        HealthCheckSpec healthCheck,
        OutlierDetectionSpec outlierDetection,
        CircuitBreakerSpec circuitBreaker,
        BalanceSpec balance,
        UpstreamLimitsSpec upstreamLimits,
        WwwRedirect wwwRedirect,
        AccessSpec access,
        BasicAuthSpec basicAuth,
        RateLimitSpec rateLimit,
        ForwardAuthSpec forwardAuth,
        JwtSpec jwt,
        CorsSpec cors,
        ErrorPagesSpec errorPages,
        List<RouteSpec> routes) {

    /** How long a WebSocket (or other upgraded) tunnel may stay silent both ways when the vhost does not say. */
    public static final Duration DEFAULT_WEBSOCKET_IDLE_TIMEOUT = Duration.ofHours(1);

    public VhostSpec {
        hostnames = List.copyOf(hostnames);
        upstreams = List.copyOf(upstreams);
        accessLog = accessLog == null ? AccessLogSpec.DEFAULT : accessLog;
        cache = cache == null ? CacheSpec.DISABLED : cache;
        compression = compression == null ? CompressionSpec.DISABLED : compression;
        tls = tls == null ? TlsSpec.NONE : tls;
        websocketIdleTimeout = websocketIdleTimeout == null ? DEFAULT_WEBSOCKET_IDLE_TIMEOUT : websocketIdleTimeout;
        retry = retry == null ? RetrySpec.DEFAULT : retry;
        outlierDetection = outlierDetection == null ? OutlierDetectionSpec.DEFAULT : outlierDetection;
        balance = balance == null ? BalanceSpec.DEFAULT : balance;
        upstreamLimits = upstreamLimits == null ? UpstreamLimitsSpec.DEFAULT : upstreamLimits;
        access = access == null ? AccessSpec.NONE : access;
        cors = cors == null ? CorsSpec.NONE : cors;
        errorPages = errorPages == null ? ErrorPagesSpec.NONE : errorPages;
        routes = routes == null ? List.of() : List.copyOf(routes);
    }
}
