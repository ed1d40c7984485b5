package dev.portico.proxy.upstream.balance;

/** What a selector may ask of a vhost's upstreams: how many there are and whether one may be used now. */
public interface UpstreamAvailability {

    int size();

    /** Whether upstream {@code index} may be used (passive health has not taken it out). */
    boolean available(int index, long nowNanos);
}
