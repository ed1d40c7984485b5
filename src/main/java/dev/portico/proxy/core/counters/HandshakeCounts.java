package dev.portico.proxy.core.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * TLS handshakes completed by the data plane's listeners, full or resumed (from a session ticket or a session id),
 * one set of counters per event loop (written by that loop only). Resumption is what shared ticket keys buy: its
 * share is the figure to watch after a rotation or on a new replica. Handshakes whose engine cannot tell (the JDK's)
 * are counted apart.
 */
public final class HandshakeCounts {

    /** How a handshake went, as far as its engine tells. */
    public enum Kind {
        FULL("false"), RESUMED("true"), UNKNOWN("unknown");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The value of the {@code resumed} label. */
        public String label() {
            return label;
        }
    }

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);
    // One counter per kind and loop, a cache line apart per loop, so loops never write the same line.
    private static final int STRIDE = 8;

    private final long[] counts;

    public HandshakeCounts(int loops) {
        counts = new long[loops * STRIDE];
    }

    /** Called on loop {@code loop}'s thread. */
    public void completed(int loop, Kind kind) {
        int i = loop * STRIDE + kind.ordinal();
        COUNTS.setOpaque(counts, i, (long) COUNTS.getOpaque(counts, i) + 1);
    }

    /** Handshakes of that kind across all loops so far. */
    public long total(Kind kind) {
        long total = 0;
        for (int i = kind.ordinal(); i < counts.length; i += STRIDE) {
            total += (long) COUNTS.getOpaque(counts, i);
        }
        return total;
    }
}
