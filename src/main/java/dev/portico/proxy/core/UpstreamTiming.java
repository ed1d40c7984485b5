package dev.portico.proxy.core;

/**
 * What the access log and the latency statistics report about a request's trip upstream: the upstream of the last
 * attempt, and the time from connecting to it to its response head. Confined to the request's event loop.
 */
public final class UpstreamTiming {

    private String address;
    private long startNanos;
    private long headersNanos;
    private int attempts;

    /** Records the upstream attempt now starting; the last one wins in the log. */
    public void started(String upstreamAddress) {
        this.attempts++;
        this.address = upstreamAddress;
        this.startNanos = System.nanoTime();
        this.headersNanos = 0;
    }

    public void headersReceived() {
        this.headersNanos = System.nanoTime();
    }

    /** The origin of the last attempt, or null when the request did not go upstream. */
    public String address() {
        return address;
    }

    /** Upstream attempts made for the request: 0 when it did not go upstream, more than 1 when it was retried. */
    public int attempts() {
        return attempts;
    }

    /** Nanoseconds from connecting to the upstream to its response head, or -1 when none arrived. */
    public long nanos() {
        return headersNanos == 0 ? -1 : headersNanos - startNanos;
    }
}
