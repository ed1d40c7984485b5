package dev.portico.proxy.upstream.balance;

/** What a selector may ask of a vhost's upstreams: how many there are and whether one may be used now. */
public interface UpstreamAvailability {

    int size();

    /** Whether upstream {@code index} may be used (passive health has not taken it out). */
    boolean available(int index, long nowNanos);

    /**
     * The share of its weight upstream {@code index} gets now: 1, or between 0.1 and 1 while it ramps up after coming
     * back (slow start).
     */
    default double weightShare(int index, long nowNanos) {
        return 1.0;
    }
}
