package dev.portico.proxy.ratelimit;

import dev.portico.http.TrustedProxies;
import dev.portico.proxy.access.ClientAddresses;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RuntimeKey;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.VerifiedClaims;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.RateLimitSpec;
import io.vertx.core.http.HttpHeaders;

/**
 * A vhost's or route's {@code rateLimit}: a token bucket per key; a request its bucket has no token for gets 429
 * {@code rate_limited} with {@code Retry-After} and the headers of draft-ietf-httpapi-ratelimit-headers-08
 * ({@code RateLimit-Policy: "default";q=burst;w=seconds to refill} and {@code RateLimit: "default";r=0;t=seconds}).
 * Requests let through carry no such header: like Envoy's local_ratelimit without {@code enable_x_ratelimit_headers}
 * and nginx's {@code limit_req}, the common path costs one lookup and one compare-and-set, no formatting.
 *
 * <p>The buckets outlive snapshots (an edit elsewhere must not refill them) while the limit's settings stay the same;
 * a route's pipeline keeps its own. They count this instance's requests only.
 */
public final class RateLimitStage implements Stage {

    /** The buckets of a pipeline, claimed with its settings: equal settings in the next snapshot keep them. */
    static final RuntimeKey<Buckets> KEY = RuntimeKey.create("rate-limit buckets", Buckets.class);
    /** Distinct keys a table holds before idle buckets are swept: a few MB at most per limit. */
    static final int MAX_KEYS = 100_000;

    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    private static final CharSequence RATE_LIMIT = HttpHeaders.createOptimized("RateLimit");
    private static final CharSequence RATE_LIMIT_POLICY = HttpHeaders.createOptimized("RateLimit-Policy");
    private static final String ROUTE_KEY = "";

    /**
     * The tables of one limit: by the key's value, and by client for requests without one (kept apart so a header
     * that spells someone's address cannot spend that client's tokens).
     */
    record Buckets(TokenBuckets byValue, TokenBuckets byClient) {
        static Buckets of(RateLimitSpec spec) {
            return new Buckets(new TokenBuckets(spec.requestsPerSecond(), spec.burst(), MAX_KEYS),
                    new TokenBuckets(spec.requestsPerSecond(), spec.burst(), MAX_KEYS));
        }
    }

    private final RateLimitSpec spec;
    private final Buckets buckets;
    private final TrustedProxies trusted;
    private final CharSequence policy;

    RateLimitStage(RateLimitSpec spec, Buckets buckets, TrustedProxies trusted) {
        this.spec = spec;
        this.buckets = buckets;
        this.trusted = trusted;
        long window = (long) Math.ceil(spec.burst() / spec.requestsPerSecond());
        this.policy = HttpHeaders.createOptimized("\"default\";q=" + spec.burst() + ";w=" + Math.max(1, window));
    }

    /** No stage at all without a limit. */
    public static StageFactory factory(TrustedProxies trusted) {
        return context -> {
            RateLimitSpec spec = context.spec().rateLimit();
            return spec == null ? null
                    : new RateLimitStage(spec, context.runtime().claim(KEY, spec, () -> Buckets.of(spec)), trusted);
        };
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        String value = keyValue(exchange);
        long wait = value != null ? buckets.byValue().take(value, System.nanoTime())
                : buckets.byClient().take(ClientAddresses.of(exchange, trusted), System.nanoTime());
        if (wait == 0) {
            return Flow.NEXT;
        }
        long seconds = Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
        String retry = Long.toString(seconds);
        exchange.response().headers().set(RETRY_AFTER, retry)
                .set(RATE_LIMIT_POLICY, policy)
                .set(RATE_LIMIT, "\"default\";r=0;t=" + retry);
        exchange.replyLocal(LocalReason.RATE_LIMITED, "Too many requests for this " + scope(exchange)
                + "; try again in " + retry + " s");
        return Flow.TAKEN;
    }

    /** The key's value for the header, claim and route keys; null to count by client. */
    private String keyValue(Exchange exchange) {
        return switch (spec.key()) {
            case CLIENT -> null;
            case ROUTE -> ROUTE_KEY;
            case HEADER -> exchange.request().getHeader(spec.keyName());
            case CLAIM -> {
                VerifiedClaims claims = exchange.get(VerifiedClaims.SLOT);
                yield claims == null ? null : claims.claim(spec.keyName());
            }
        };
    }

    private String scope(Exchange exchange) {
        return switch (spec.key()) {
            case ROUTE -> "vhost or route";
            case HEADER -> exchange.request().getHeader(spec.keyName()) != null ? spec.keyName() : "client";
            case CLAIM -> "user";
            case CLIENT -> "client";
        };
    }
}
