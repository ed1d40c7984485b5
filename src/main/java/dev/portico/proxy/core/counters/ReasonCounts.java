package dev.portico.proxy.core.counters;

import dev.portico.proxy.core.outcome.LocalReason;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Events that are not requests, counted by the {@link LocalReason} they end with: HTTP/2 connections closed for an
 * attack on the protocol, connections held at the connection limit. One counter per reason and event loop (written
 * by that loop only), and atomic ones for threads that are no event loop of the data plane (the acceptor's).
 */
public final class ReasonCounts {

    private final LoopCounts counts;
    private final AtomicLongArray offLoop = new AtomicLongArray(LocalReason.values().length);

    public ReasonCounts(int loops) {
        counts = new LoopCounts(loops, LocalReason.values().length);
    }

    /** Called on loop {@code loop}'s thread. */
    public void counted(int loop, LocalReason reason) {
        counts.increment(loop, reason.ordinal());
    }

    /** From any thread. */
    public void countedOffLoop(LocalReason reason) {
        offLoop.incrementAndGet(reason.ordinal());
    }

    /** Events with that reason across all loops so far. */
    public long total(LocalReason reason) {
        return counts.total(reason.ordinal()) + offLoop.get(reason.ordinal());
    }
}
