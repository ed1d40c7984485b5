package dev.portico.proxy.upstream.balance;

/**
 * What watches one upstream of one vhost beyond the origin's own passive health ({@link UpstreamHealth}): the active
 * health check and outlier detection ({@code proxy.upstream.health}). Shared by every event loop: implementations are
 * lock-free, and {@link #available} is a volatile load or two.
 */
public interface UpstreamWatch {

    /** Nothing watches: always available, hears nothing (a dry run's upstreams). */
    UpstreamWatch NONE = new UpstreamWatch() {
        @Override
        public boolean available(long nowNanos) {
            return true;
        }

        @Override
        public void attempted() {
        }

        @Override
        public void reported(int loop, int status, String failure, long nowNanos) {
        }

        @Override
        public void overloaded() {
        }
    };

    /** Whether new requests may go to the upstream: its check passes (when on) and no ejection holds it. */
    boolean available(long nowNanos);

    /** An attempt on the upstream was picked. */
    void attempted();

    /**
     * How that attempt went: the response's status, 0 for a failure ({@code failure} names it), -1 when the client
     * left before the upstream had a say. Called on event loop {@code loop} (-1 with status -1).
     */
    void reported(int loop, int status, String failure, long nowNanos);

    /**
     * Instead of {@link #reported}: the attempt never reached the upstream, refused by Portico's queue for its
     * connections ({@code upstream_overloaded}). Counted apart, and no verdict on the upstream.
     */
    void overloaded();

    /**
     * When the upstream last came back into service after this watch had it out (its origin's passive health is the
     * group's to add), for slow start; {@link UpstreamHealth#NEVER} when it never was out.
     */
    default long cameBackAtNanos() {
        return UpstreamHealth.NEVER;
    }
}
