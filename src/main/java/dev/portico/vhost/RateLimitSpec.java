package dev.portico.vhost;

/**
 * A token-bucket rate limit of a vhost or a route: {@code burst} requests at once, refilled at
 * {@code requestsPerSecond}, one bucket per key.
 *
 * @param keyName the header's or the claim's name for {@link Key#HEADER} and {@link Key#CLAIM}; otherwise null
 */
public record RateLimitSpec(double requestsPerSecond, int burst, Key key, String keyName) {

    /** What a bucket belongs to. */
    public enum Key {
        /** The client address (behind trusted proxies, the forwarded one). */
        CLIENT,
        /** A request header's value; a request without it counts by its client. */
        HEADER,
        /** A claim an authentication stage verified; a request without it counts by its client. */
        CLAIM,
        /** One bucket for every request of the vhost or route. */
        ROUTE
    }
}
