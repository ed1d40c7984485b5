package dev.portico.vhost;

import java.time.Duration;

/**
 * A vhost's circuit breaker over its upstream group (Traefik's CircuitBreaker middleware, resilience4j's breaker per
 * dependency), apart from outlier detection, which takes single upstreams out: when at least {@code failureRatio} of
 * the vhost's forwarded requests over {@code window} failed (and there were at least {@code minRequests}), the
 * breaker opens and requests are refused at once for {@code coolDown}; then up to {@code halfOpenRequests} trial
 * requests go through, and it closes when all of them succeed or opens again when one fails.
 *
 * @param failureRatio     the share of failed requests that opens the breaker, above 0 and at most 1
 * @param minRequests      the fewest requests within the window for the ratio to count
 * @param window           the sliding window the ratio is measured over
 * @param coolDown         how long the breaker stays open before it lets trial requests through
 * @param halfOpenRequests the trial requests that must all succeed to close it again
 */
public record CircuitBreakerSpec(double failureRatio, int minRequests, Duration window, Duration coolDown,
                                 int halfOpenRequests) {

    public static final double DEFAULT_FAILURE_RATIO = 0.5;
    public static final int DEFAULT_MIN_REQUESTS = 20;
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(10);
    public static final Duration DEFAULT_COOL_DOWN = Duration.ofSeconds(10);
    public static final int DEFAULT_HALF_OPEN_REQUESTS = 3;
}
