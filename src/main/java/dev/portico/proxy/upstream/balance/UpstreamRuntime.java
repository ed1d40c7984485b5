package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.RuntimeKey;

/**
 * A vhost's upstream selector states, one per event loop (a round-robin cursor), kept across snapshots
 * ({@link dev.portico.proxy.core.VhostRuntime}) while the selector's compatibility is unchanged: an edit of another
 * vhost must not send every loop of this one back to the first upstream. Each slot is created, read and written by its
 * own loop only, so nothing is atomic.
 */
public final class UpstreamRuntime {

    public static final RuntimeKey<UpstreamRuntime> KEY = RuntimeKey.create("upstream-selection", UpstreamRuntime.class);

    private final Object[] loopStates;

    /** @param loops the number of event loops */
    public UpstreamRuntime(int loops) {
        this.loopStates = new Object[loops];
    }

    /** Loop {@code loop}'s state of {@code selector}, created on first use; call on that loop. */
    <S> S loopState(UpstreamSelector<S> selector, int loop) {
        @SuppressWarnings("unchecked")
        S state = (S) loopStates[loop];
        if (state == null) {
            state = selector.newLoopState();
            loopStates[loop] = state;
        }
        return state;
    }
}
