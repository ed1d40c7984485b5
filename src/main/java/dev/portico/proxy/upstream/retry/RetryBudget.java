package dev.portico.proxy.upstream.retry;

import dev.portico.proxy.core.RuntimeKey;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How many retries a vhost may still make (Envoy's retry budgets, Linkerd's and Finagle's {@code RetryBudget}): over
 * a sliding window of ten one-second buckets, retries may add at most {@code ratio} of the requests the vhost was sent,
 * and at least {@code minPerSecond} retries are allowed in any second, so a vhost with little traffic can still retry.
 * So an outage cannot multiply the load on the upstreams that are left by the number of attempts.
 *
 * <p>Kept per event loop (no cross-thread contention), so the share holds on each loop and therefore overall; the
 * minimum is per loop too. Each loop's window is created, read and written by that loop only. Kept across snapshots
 * while the ratio and the minimum are unchanged ({@link dev.portico.proxy.core.VhostRuntime}).
 */
public final class RetryBudget {

    public static final RuntimeKey<RetryBudget> KEY = RuntimeKey.create("retry-budget", RetryBudget.class);
    static final int BUCKETS = 10;
    private static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final double ratio;
    private final int minPerSecond;
    private final Window[] windows;

    /** @param loops the number of event loops */
    public RetryBudget(double ratio, int minPerSecond, int loops) {
        this.ratio = ratio;
        this.minPerSecond = minPerSecond;
        this.windows = new Window[loops];
    }

    /** What makes one compile's budget usable by the next: the same ratio and minimum. */
    public static Object compatibility(double ratio, int minPerSecond) {
        return List.of("retry-budget", ratio, minPerSecond);
    }

    /** A request of the vhost arrived on {@code loop}; call on that loop. */
    public void requested(int loop, long nowNanos) {
        window(loop, nowNanos).requests[bucket(nowNanos)]++;
    }

    /** Takes one retry from the budget of {@code loop} if there is one left; call on that loop. */
    public boolean tryRetry(int loop, long nowNanos) {
        Window window = window(loop, nowNanos);
        int current = bucket(nowNanos);
        long requests = 0;
        long retries = 0;
        for (int i = 0; i < BUCKETS; i++) {
            requests += window.requests[i];
            retries += window.retries[i];
        }
        if (retries + 1 > ratio * requests && window.retries[current] >= minPerSecond) {
            return false;
        }
        window.retries[current]++;
        return true;
    }

    private Window window(int loop, long nowNanos) {
        Window window = windows[loop];
        if (window == null) {
            window = new Window(nowNanos / BUCKET_NANOS);
            windows[loop] = window;
        }
        window.advance(nowNanos / BUCKET_NANOS);
        return window;
    }

    private static int bucket(long nowNanos) {
        return (int) Math.floorMod(nowNanos / BUCKET_NANOS, (long) BUCKETS);
    }

    /** One loop's last ten seconds, a bucket per second. */
    private static final class Window {
        private final long[] requests = new long[BUCKETS];
        private final long[] retries = new long[BUCKETS];
        private long second;

        Window(long second) {
            this.second = second;
        }

        /** Empties the buckets of the seconds that passed since the last call, which now stand for new seconds. */
        void advance(long now) {
            long passed = now - second;
            if (passed <= 0) {
                return;
            }
            for (long s = second + 1; s <= now && s <= second + BUCKETS; s++) {
                int i = (int) Math.floorMod(s, (long) BUCKETS);
                requests[i] = 0;
                retries[i] = 0;
            }
            second = now;
        }
    }
}
