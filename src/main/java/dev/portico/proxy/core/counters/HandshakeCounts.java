package dev.portico.proxy.core.counters;

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

    private final LoopCounts counts;

    public HandshakeCounts(int loops) {
        counts = new LoopCounts(loops, Kind.values().length);
    }

    /** Called on loop {@code loop}'s thread. */
    public void completed(int loop, Kind kind) {
        counts.increment(loop, kind.ordinal());
    }

    /** Handshakes of that kind across all loops so far. */
    public long total(Kind kind) {
        return counts.total(kind.ordinal());
    }
}
