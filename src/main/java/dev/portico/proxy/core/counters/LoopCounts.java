package dev.portico.proxy.core.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A few counters per event loop, each written by its loop only and read by anyone: a loop's counters share no cache
 * line with another loop's (padded to at least 8 longs), so loops never write the same line.
 */
final class LoopCounts {

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] counts;
    private final int stride;

    LoopCounts(int loops, int kinds) {
        stride = Math.max(8, kinds);
        counts = new long[loops * stride];
    }

    /** Called on loop {@code loop}'s thread. */
    void increment(int loop, int kind) {
        int i = loop * stride + kind;
        COUNTS.setOpaque(counts, i, (long) COUNTS.getOpaque(counts, i) + 1);
    }

    /** That kind's count across all loops so far. */
    long total(int kind) {
        long total = 0;
        for (int i = kind; i < counts.length; i += stride) {
            total += (long) COUNTS.getOpaque(counts, i);
        }
        return total;
    }
}
