package dev.portico.vhost;

import java.time.Duration;
import java.util.Set;

/**
 * When a vhost sends a request to another upstream (or the same one again) after a failed attempt, and how much
 * extra load retries may add.
 *
 * @param connectFailure retry when no connection could be had (refused, connect timeout, TLS handshake): nothing of
 *                       the request was sent, so any method may be retried
 * @param timeout retry an idempotent request whose attempt got no response head in time
 * @param reset retry an idempotent request whose connection closed or broke before a full response head
 * @param statuses retry an idempotent request whose attempt answered one of these statuses (e.g. 502, 503, 504)
 * @param attempts tries in all, the first included (1 never retries)
 * @param perTryTimeout the longest wait for one attempt's response head once its request is sent; null for the
 *                      vhost's read timeout
 * @param backoff the base of the exponential backoff between attempts (full jitter); zero retries at once
 * @param maxBackoff the cap of the backoff
 * @param bufferBytes the largest request body kept while it streams so that a retry can send it again; a larger one
 *                    is never retried once it started to go out
 * @param budget the share of the vhost's requests (over the budget's sliding window) that retries may add
 * @param minRetriesPerSecond retries allowed on top of the budget's share, per second of its window (so a quiet vhost
 *                            can still retry)
 */
public record RetrySpec(boolean connectFailure, boolean timeout, boolean reset, Set<Integer> statuses, int attempts,
                        Duration perTryTimeout, Duration backoff, Duration maxBackoff, long bufferBytes,
                        double budget, int minRetriesPerSecond) {

    public static final int DEFAULT_ATTEMPTS = 3;
    public static final Duration DEFAULT_BACKOFF = Duration.ofMillis(25);
    /** Envoy's rule: ten times the base interval. */
    public static final int MAX_BACKOFF_FACTOR = 10;
    public static final long DEFAULT_BUFFER_BYTES = 64 * 1024;
    public static final double DEFAULT_BUDGET = 0.2;
    public static final int DEFAULT_MIN_RETRIES_PER_SECOND = 10;

    /**
     * What a vhost that says nothing gets: connect failures retried as before (HAProxy's default {@code retry-on
     * conn-failure}), up to three tries in all, within a 20% budget.
     */
    public static final RetrySpec DEFAULT = new RetrySpec(true, false, false, Set.of(), DEFAULT_ATTEMPTS, null,
            DEFAULT_BACKOFF, DEFAULT_BACKOFF.multipliedBy(MAX_BACKOFF_FACTOR), DEFAULT_BUFFER_BYTES, DEFAULT_BUDGET,
            DEFAULT_MIN_RETRIES_PER_SECOND);

    public RetrySpec {
        statuses = Set.copyOf(statuses);
    }

    /** Whether an attempt answered with {@code status} is retried (when the request is safe to send again). */
    public boolean retriesStatus(int status) {
        return statuses.contains(status);
    }
}
