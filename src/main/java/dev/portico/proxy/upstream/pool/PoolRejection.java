package dev.portico.proxy.upstream.pool;

import dev.portico.proxy.core.outcome.ProxyError;

/**
 * Why a request got no connection from its upstream's pool although nothing is wrong with the upstream: the wait queue
 * was full ({@code maxPending}), or every connection stayed busy for the queue timeout. Portico's own limit, so the
 * upstream's health never hears of it. Thrown without a stack trace: it happens under load, by design.
 */
public final class PoolRejection extends RuntimeException {

    private final boolean timedOut;

    private PoolRejection(boolean timedOut, String message) {
        super(message, null, false, false);
        this.timedOut = timedOut;
    }

    /** Every connection was busy and {@code maxPending} requests already waited. */
    static PoolRejection queueFull(int maxPending) {
        return new PoolRejection(false, "Every connection to the upstream is busy and " + maxPending
                + " requests already wait for one (upstreamLimits.maxPending); try again shortly");
    }

    /** The request waited {@code queueTimeoutMillis} and no connection came free. */
    static PoolRejection queueTimedOut(long queueTimeoutMillis) {
        return new PoolRejection(true, "No connection to the upstream came free within " + queueTimeoutMillis
                + " ms (upstreamLimits.queueTimeout); try again shortly");
    }

    /** The pool was retired (its upstream left the configuration) before the request got a connection. */
    static PoolRejection poolClosed() {
        return new PoolRejection(false, "The upstream's pool was closed");
    }

    /** The request waited for the queue timeout; otherwise the queue was full when it came. */
    public boolean timedOut() {
        return timedOut;
    }

    /** The typed failure: 503 {@code upstream_overloaded}, with this message as its detail. */
    public ProxyError error() {
        return ProxyError.overloaded(getMessage());
    }
}
