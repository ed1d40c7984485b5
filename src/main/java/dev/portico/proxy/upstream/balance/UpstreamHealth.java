package dev.portico.proxy.upstream.balance;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passive health of one upstream origin, shared by every vhost and event loop that uses it and kept across
 * snapshots: after {@code maxFails} consecutive failed attempts it is out for {@code failTimeout}, then one
 * request probes it again (nginx {@code max_fails}/{@code fail_timeout}). Reads are a single volatile load.
 */
public final class UpstreamHealth {

    private final int maxFails;
    private final long failTimeoutNanos;
    private final AtomicInteger failures = new AtomicInteger();
    private volatile long downUntilNanos;
    private volatile boolean down;
    /** When a request last succeeded on this upstream after it was out ({@link #NEVER} if it never came back). */
    private volatile long cameBackAtNanos = NEVER;

    /** {@link #cameBackAtNanos()} of an upstream that was never out. */
    public static final long NEVER = Long.MIN_VALUE;

    public UpstreamHealth(int maxFails, long failTimeoutNanos) {
        this.maxFails = Math.max(1, maxFails);
        this.failTimeoutNanos = failTimeoutNanos;
    }

    /** Whether a request may be sent now: up, or out long enough to be probed. */
    public boolean available(long nowNanos) {
        return !down || nowNanos - downUntilNanos >= 0;
    }

    public void succeeded() {
        if (failures.get() != 0) {
            failures.set(0);
        }
        if (down) {
            cameBackAtNanos = System.nanoTime();
            down = false;
        }
    }

    public void failed(long nowNanos) {
        if (failures.incrementAndGet() >= maxFails) {
            downUntilNanos = nowNanos + failTimeoutNanos;
            down = true;
        }
    }

    /** When this upstream last became available again after being out (slow start ramps from there), or {@link #NEVER}. */
    public long cameBackAtNanos() {
        return cameBackAtNanos;
    }

    /** The later of two {@code System.nanoTime()} instants, either of which may be {@link #NEVER}. */
    public static long later(long a, long b) {
        if (a == NEVER) {
            return b;
        }
        if (b == NEVER) {
            return a;
        }
        return a - b > 0 ? a : b;
    }

    /** For status reporting: out and not yet due for a probe. */
    public boolean isDown(long nowNanos) {
        return !available(nowNanos);
    }
}
