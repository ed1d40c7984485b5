package dev.portico.proxy.core.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Client connections opened and closed, one pair of counters per event loop (written by that loop only). */
public final class ConnectionCounts {

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    // Two longs per loop, a cache line apart, so loops never write the same line.
    private static final int STRIDE = 8;

    private final long[] counts;

    public ConnectionCounts(int loops) {
        counts = new long[loops * STRIDE];
    }

    public void opened(int loop) {
        int i = loop * STRIDE;
        COUNTS.setOpaque(counts, i, (long) COUNTS.getOpaque(counts, i) + 1);
    }

    public void closed(int loop) {
        int i = loop * STRIDE + 1;
        COUNTS.setOpaque(counts, i, (long) COUNTS.getOpaque(counts, i) + 1);
    }

    /** Open connections across all loops now. */
    public long active() {
        long active = 0;
        for (int i = 0; i < counts.length; i += STRIDE) {
            active += (long) COUNTS.getOpaque(counts, i) - (long) COUNTS.getOpaque(counts, i + 1);
        }
        return Math.max(0, active);
    }
}
