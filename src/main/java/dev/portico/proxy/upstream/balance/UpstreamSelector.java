package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;
import io.vertx.core.MultiMap;

/**
 * Chooses the upstream for each attempt of a request (Pingora's upstream peer phase) and hears how each attempt went.
 * The seam for load-balancing policies: one instance per vhost and compile, immutable and shared by every event
 * loop; what changes per request (a cursor, counts in flight) lives in a per-loop state {@code S} that the selector
 * creates and only that loop touches, so nothing is atomic. A vhost's loop states are kept across publishes while
 * {@link #compatibility()} is equal. Called on an event loop: must not block, and should not allocate per call.
 *
 * @param <S> the per-loop state
 */
public interface UpstreamSelector<S> {

    /** A fresh state for one event loop; called on that loop. */
    S newLoopState();

    /**
     * The upstream for this attempt, as an index into the vhost's upstreams, or -1 when every one was tried or none
     * is available. The attempt it starts ends with {@link #finished}.
     *
     * @param request the client's request (what a hash or a sticky cookie is read from); null for a request Portico
     *                makes itself, such as a cache refresh
     * @param tried   bit i set when upstream i was already tried for this request, or may not be used for it (a
     *                backup while a primary may be)
     */
    int pick(S state, UpstreamAvailability upstreams, Exchange request, long tried, long nowNanos);

    /** How an attempt on upstream {@code index} went. */
    default void report(S state, int index, AttemptOutcome outcome, long nowNanos) {
    }

    /**
     * The attempt on upstream {@code index} is over: its response ended, or it failed. Called once per pick.
     *
     * @param headNanos the time from connecting to the response head, or -1 when no head came
     */
    default void finished(S state, int index, long headNanos, long nowNanos) {
    }

    /** The response of upstream {@code index} is about to go to the client: a policy may add fields to it. */
    default void responding(S state, int index, Exchange request, MultiMap responseHeaders) {
    }

    /**
     * What makes loop states of one compile usable by the next: equal (value equality) when the policy and everything
     * its states index into (the upstreams and their weights) are the same.
     */
    Object compatibility();
}
