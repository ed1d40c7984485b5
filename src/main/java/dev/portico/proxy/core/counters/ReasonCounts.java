package dev.portico.proxy.core.counters;

import dev.portico.proxy.core.outcome.LocalReason;

/**
 * Events that are not requests, counted by the {@link LocalReason} they end with: HTTP/2 connections closed for an
 * attack on the protocol. One counter per reason and event loop (written by that loop only).
 */
public final class ReasonCounts {

    private final LoopCounts counts;

    public ReasonCounts(int loops) {
        counts = new LoopCounts(loops, LocalReason.values().length);
    }

    /** Called on loop {@code loop}'s thread. */
    public void counted(int loop, LocalReason reason) {
        counts.increment(loop, reason.ordinal());
    }

    /** Events with that reason across all loops so far. */
    public long total(LocalReason reason) {
        return counts.total(reason.ordinal());
    }
}
