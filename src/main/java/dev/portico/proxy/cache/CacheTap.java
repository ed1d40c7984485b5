package dev.portico.proxy.cache;

import dev.portico.proxy.core.BodyFilter;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;

/**
 * What the cache stage does for one request in the phases after the request phase, kept in the exchange
 * ({@link CacheStage#TAP}): fill the cache from the upstream's answer, answer a revalidation's 304 from what it
 * stored, serve a stale response when the origin fails, invalidate after an unsafe method, or only label the response
 * with its {@code Cache-Status}. All methods run on the request's event loop.
 */
interface CacheTap {

    /**
     * The upstream's response head has arrived (compressed, when the vhost compresses it); nothing has been written
     * to the client yet.
     *
     * @return true when the tap answered the client itself: the upstream body is then discarded
     */
    default boolean head(Exchange exchange, int status) {
        return false;
    }

    /** The tap's part in the response body phase after {@link #head}, or null. */
    default BodyFilter body() {
        return null;
    }

    /**
     * No upstream answered; a local error reply for {@code reason} is about to be sent.
     *
     * @return true when the tap answered the client instead (a stale response under {@code stale-if-error})
     */
    default boolean failed(Exchange exchange, LocalReason reason) {
        return false;
    }

    /**
     * The response is being sent, or the request ended, and no upstream head reached the tap: a static file answered,
     * or the client left first. Requests waiting on a fill go on by themselves. Called again harmlessly.
     */
    default void noUpstreamResponse() {
    }
}
