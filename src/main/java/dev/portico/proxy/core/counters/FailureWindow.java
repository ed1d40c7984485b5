package dev.portico.proxy.core.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * Requests and failures over a sliding time window (Envoy's outlier detection interval, resilience4j's time-based
 * window): {@value #BUCKETS} buckets of a tenth of the window each, so a sum covers the last 90 to 100% of it. Used
 * by outlier detection's failure ratio (one per upstream) and by a vhost's circuit breaker.
 *
 * <p>One row per event loop, written by that loop only (plain increments published with opaque stores, as
 * {@link LoopSlot}: no atomics, no contention) and padded so two loops never write one cache line; anyone may sum
 * the rows. Writing costs three array slots; reading sums every loop's buckets, which is why its readers are the
 * health sweeper and a breaker deciding after a failure, not every request.
 */
public final class FailureWindow {

    static final int BUCKETS = 10;
    /** Per bucket: the bucket period it counts, its requests, its failures. */
    private static final int FIELDS = 3;
    /** A row and at least 8 longs of padding, so a loop's writes never share a cache line with another loop's. */
    private static final int STRIDE = BUCKETS * FIELDS + 8;
    private static final long EMPTY = Long.MIN_VALUE;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Duration window;
    private final long bucketNanos;
    private final long[] slots;
    /** Buckets of earlier periods are left out of the sums: what came before a {@link #restart}. */
    private volatile long floor = EMPTY;

    /** What the window holds now. */
    public record Counts(long requests, long failures) {

        /** The share that failed, 0 to 1; 0 without requests. */
        public double ratio() {
            return requests == 0 ? 0 : (double) failures / requests;
        }

        /** "62% of 80 requests failed in 10s". */
        public String describe(String window) {
            return 100 * failures / Math.max(1, requests) + "% of " + requests + " request" + (requests == 1 ? "" : "s")
                    + " failed in " + window;
        }
    }

    /** @param loops the number of event loops, each of which writes its own row */
    public FailureWindow(Duration window, int loops) {
        this.window = window;
        this.bucketNanos = Math.max(1, window.toNanos() / BUCKETS);
        this.slots = new long[Math.max(1, loops) * STRIDE];
        for (int row = 0; row < slots.length; row += STRIDE) {
            for (int b = 0; b < BUCKETS; b++) {
                slots[row + b * FIELDS] = EMPTY;
            }
        }
    }

    public Duration window() {
        return window;
    }

    /** One request ended on loop {@code loop}, failed or not; call on that loop only. */
    public void record(int loop, boolean failed, long nowNanos) {
        long period = Math.floorDiv(nowNanos, bucketNanos);
        int at = loop * STRIDE + (int) Math.floorMod(period, (long) BUCKETS) * FIELDS;
        if ((long) SLOTS.getOpaque(slots, at) != period) {
            // The bucket last counted a period a whole window ago: it starts again, emptied before it is named.
            SLOTS.setOpaque(slots, at + 1, 0L);
            SLOTS.setOpaque(slots, at + 2, 0L);
            SLOTS.setRelease(slots, at, period);
        }
        SLOTS.setOpaque(slots, at + 1, (long) SLOTS.getOpaque(slots, at + 1) + 1);
        if (failed) {
            SLOTS.setOpaque(slots, at + 2, (long) SLOTS.getOpaque(slots, at + 2) + 1);
        }
    }

    /** The requests and failures of every loop within the window (and since the last {@link #restart}). */
    public Counts counts(long nowNanos) {
        long period = Math.floorDiv(nowNanos, bucketNanos);
        long oldest = Math.max(floor, period - BUCKETS + 1);
        long requests = 0;
        long failures = 0;
        for (int row = 0; row < slots.length; row += STRIDE) {
            for (int at = row; at < row + BUCKETS * FIELDS; at += FIELDS) {
                long counted = (long) SLOTS.getAcquire(slots, at);
                if (counted >= oldest && counted <= period) {
                    requests += (long) SLOTS.getOpaque(slots, at + 1);
                    failures += (long) SLOTS.getOpaque(slots, at + 2);
                }
            }
        }
        return new Counts(requests, failures);
    }

    /**
     * Forgets what was counted so far, from any thread: the buckets stay the loops' to write, and the sums leave out
     * every period up to the current one: counting starts again with the next bucket, a tenth of the window away.
     */
    public void restart(long nowNanos) {
        floor = Math.floorDiv(nowNanos, bucketNanos) + 1;
    }
}
