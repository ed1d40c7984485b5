package dev.portico.proxy.upstream.balance;

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
     * is available.
     *
     * @param tried bit i set when upstream i was already tried for this request
     */
    int pick(S state, UpstreamAvailability upstreams, long tried, long nowNanos);

    /** How an attempt on upstream {@code index} went. */
    default void report(S state, int index, AttemptOutcome outcome, long nowNanos) {
    }

    /**
     * What makes loop states of one compile usable by the next: equal (value equality) when the policy and everything
     * its states index into (the upstreams and their weights) are the same.
     */
    Object compatibility();
}
