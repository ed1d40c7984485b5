package dev.portico.vhost;

import java.time.Duration;
import java.util.List;

/**
 * A vhost's response-cache settings.
 *
 * @param enabled whether responses are stored and served from memory
 * @param maxBytes this vhost's share of the global cache memory budget (scaled down when the shares of all vhosts
 *                 add up to more than the budget)
 * @param maxObjectBytes the largest body stored; larger responses are streamed through and not stored
 * @param defaultTtl the cap on heuristic freshness for responses without explicit freshness (10% of the time since
 *                   Last-Modified, or this value without Last-Modified); zero stores only responses that say how
 *                   long they are fresh, like nginx without {@code proxy_cache_valid}
 * @param staleWhileRevalidate how long past expiry a stale response may still be served while one background request
 *                             refreshes it, when the origin does not say ({@code stale-while-revalidate})
 * @param staleIfError how long past expiry a stale response may still be served when the origin fails, when the
 *                     origin does not say ({@code stale-if-error})
 * @param lockTimeout how long requests for a key being fetched wait for that fetch before going upstream
 *                    themselves (nginx {@code proxy_cache_lock_timeout})
 * @param ignoreQueryParams query parameters left out of the cache key (tracking parameters such as utm_source)
 */
public record CacheSpec(boolean enabled, long maxBytes, long maxObjectBytes, Duration defaultTtl,
                        Duration staleWhileRevalidate, Duration staleIfError, Duration lockTimeout,
                        List<String> ignoreQueryParams) {

    public static final long DEFAULT_MAX_BYTES = 64L << 20;
    public static final long DEFAULT_MAX_OBJECT_BYTES = 8L << 20;

    /** Off: what a vhost gets when it says nothing. */
    public static final CacheSpec DISABLED = new CacheSpec(false, DEFAULT_MAX_BYTES, DEFAULT_MAX_OBJECT_BYTES,
            Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(5), List.of());

    public CacheSpec {
        ignoreQueryParams = List.copyOf(ignoreQueryParams);
    }
}
