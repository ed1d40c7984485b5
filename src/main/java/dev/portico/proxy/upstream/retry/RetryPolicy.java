package dev.portico.proxy.upstream.retry;

import dev.portico.proxy.core.outcome.ProxyError;
import dev.portico.proxy.core.outcome.RetryReason;
import dev.portico.vhost.RetrySpec;
import io.vertx.core.http.HttpMethod;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A vhost's retry rules, compiled once from its {@link RetrySpec}: which failures are retried, how many tries a
 * request gets, how long to wait between them, how much of a request body is kept to send again, and the vhost's
 * {@link RetryBudget}. Immutable, shared by every event loop.
 *
 * <p>Safety first (RFC 9110 section 9.2.2): any request may be tried again when nothing of it reached an upstream (a
 * connect failure); once it was sent, only an idempotent one may, and only when its body can be sent again.
 */
public final class RetryPolicy {

    private final RetrySpec spec;
    private final RetryBudget budget;
    private final long backoffMillis;
    private final long maxBackoffMillis;
    /** Whether any reason that follows a sent request is retried: only then is a body worth keeping. */
    private final boolean retriesSentRequests;

    public RetryPolicy(RetrySpec spec, RetryBudget budget) {
        this.spec = spec;
        this.budget = budget;
        this.backoffMillis = spec.backoff().toMillis();
        this.maxBackoffMillis = Math.max(backoffMillis, spec.maxBackoff().toMillis());
        this.retriesSentRequests = spec.attempts() > 1 && (spec.timeout() || spec.reset() || !spec.statuses().isEmpty());
    }

    /** Idempotent methods (RFC 9110 section 9.2.2): sending one twice has the effect of sending it once. */
    public static boolean idempotent(HttpMethod method) {
        return method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS
                || method == HttpMethod.TRACE || method == HttpMethod.PUT || method == HttpMethod.DELETE;
    }

    public RetryBudget budget() {
        return budget;
    }

    /** Tries in all, the first included. */
    public int attempts() {
        return spec.attempts();
    }

    /** Whether the vhost retries failures of this kind. */
    public boolean retriesOn(RetryReason why) {
        return switch (why) {
            // Neither reached the upstream: a full queue is retried as a failed connect is (on another upstream).
            case CONNECT_FAILURE, OVERLOADED -> spec.connectFailure();
            case TIMEOUT -> spec.timeout();
            case RESET -> spec.reset();
            case STATUS -> !spec.statuses().isEmpty();
            // Not the vhost's to choose: see Retries.afterStaleConnection.
            case STALE_CONNECTION -> false;
        };
    }

    /** Whether a response with this status is retried (when the request may be sent again). */
    public boolean retriesStatus(int status) {
        return spec.retriesStatus(status);
    }

    /**
     * Whether the rules allow another try after {@code error}: the vhost retries its kind, and either nothing was sent
     * or the method is idempotent. The body and the budget are the caller's to check.
     */
    public boolean allows(ProxyError error, HttpMethod method) {
        return retriesOn(error.retryReason()) && (error.retryable() || idempotent(method));
    }

    /** Whether a copy of the request body should be kept while it streams, so a retry can send it again. */
    public boolean keepsBodyOf(HttpMethod method) {
        return retriesSentRequests && spec.bufferBytes() > 0 && idempotent(method);
    }

    public long bufferBytes() {
        return spec.bufferBytes();
    }

    /**
     * The wait for one attempt's response head once its request is sent: the per-try timeout, or the vhost's read
     * timeout when there is none (or when it is shorter).
     */
    public long headTimeoutMillis(long readTimeoutMillis) {
        return spec.perTryTimeout() == null ? readTimeoutMillis
                : Math.min(readTimeoutMillis, spec.perTryTimeout().toMillis());
    }

    /**
     * The wait before retry number {@code retry} (1 for the first): full jitter over an exponential backoff capped at
     * the maximum, as Envoy does, so clients failing together do not come back together.
     */
    public long backoffMillis(int retry) {
        if (backoffMillis == 0) {
            return 0;
        }
        long cap = backoffMillis << Math.min(retry - 1, 20);
        return ThreadLocalRandom.current().nextLong(Math.min(cap, maxBackoffMillis) + 1);
    }
}
