package dev.portico.proxy.core.counters;

import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.RetryReason;
import dev.portico.proxy.core.outcome.TunnelClose;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One vhost's counters as seen by one event loop. Only that loop writes (plain increments published with opaque
 * stores, no atomics, no contention); the aggregator thread reads with opaque loads and takes the latency
 * histograms' intervals through HdrHistogram's wait-free {@link SingleWriterRecorder}.
 */
public final class LoopSlot {

    static final int REQUESTS = 0;
    static final int STARTED = 1;
    static final int BYTES_IN = 2;
    static final int BYTES_OUT = 3;
    static final int STATUS_1XX = 4;
    static final int REASONS = STATUS_1XX + 5;
    static final int CACHE = REASONS + LocalReason.values().length;
    static final int TUNNELS_OPENED = CACHE + CacheOutcome.values().length;
    static final int TUNNEL_BYTES_IN = TUNNELS_OPENED + 1;
    static final int TUNNEL_BYTES_OUT = TUNNEL_BYTES_IN + 1;
    static final int TUNNEL_MICROS = TUNNEL_BYTES_OUT + 1;
    static final int TUNNEL_CLOSES = TUNNEL_MICROS + 1;
    static final int RETRIES = TUNNEL_CLOSES + TunnelClose.values().length;
    static final int RETRY_BUDGET_EXHAUSTED = RETRIES + RetryReason.values().length;
    public static final int SIZE = RETRY_BUDGET_EXHAUSTED + 1;

    /** Latencies are recorded in microseconds, from 1 µs to an hour, to two significant digits. */
    static final long HIGHEST_MICROS = 3_600_000_000L;
    static final int DIGITS = 2;

    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] counts = new long[SIZE];
    // Created on first use: a vhost that gets no traffic on this loop costs no histogram memory.
    private volatile SingleWriterRecorder latency;
    private volatile SingleWriterRecorder upstreamLatency;
    // Owned by the aggregator: interval histograms handed back to the recorders instead of new ones every second.
    private Histogram spareLatency;
    private Histogram spareUpstreamLatency;

    private void add(int index, long delta) {
        COUNTS.setOpaque(counts, index, (long) COUNTS.getOpaque(counts, index) + delta);
    }

    long read(int index) {
        return (long) COUNTS.getOpaque(counts, index);
    }

    /** A request was routed to this vhost (it is in flight until {@link #completed}). */
    public void started() {
        add(STARTED, 1);
    }

    /**
     * A request finished.
     *
     * @param reason the local-reply reason, or null
     * @param upstreamNanos time to the upstream's response head, or -1 when no upstream answered
     * @param cache what the response cache did, or null
     */
    public void completed(int status, LocalReason reason, long bytesIn, long bytesOut, long durationNanos,
                          long upstreamNanos, CacheOutcome cache) {
        add(REQUESTS, 1);
        add(BYTES_IN, bytesIn);
        add(BYTES_OUT, bytesOut);
        int statusClass = status / 100;
        if (statusClass >= 1 && statusClass <= 5) {
            add(STATUS_1XX + statusClass - 1, 1);
        }
        if (reason != null) {
            add(REASONS + reason.ordinal(), 1);
        }
        if (cache != null) {
            add(CACHE + cache.ordinal(), 1);
        }
        SingleWriterRecorder total = latency;
        if (total == null) {
            latency = total = newRecorder();
        }
        total.recordValue(clampMicros(durationNanos));
        if (upstreamNanos >= 0) {
            SingleWriterRecorder upstream = upstreamLatency;
            if (upstream == null) {
                upstreamLatency = upstream = newRecorder();
            }
            upstream.recordValue(clampMicros(upstreamNanos));
        }
    }

    /** A connection switched protocols: a tunnel is open until {@link #tunnelClosed}. */
    public void tunnelOpened() {
        add(TUNNELS_OPENED, 1);
    }

    /** A tunnel closed, having carried these bytes from and to the client over {@code lifeNanos}. */
    public void tunnelClosed(TunnelClose why, long bytesFromClient, long bytesToClient, long lifeNanos) {
        add(TUNNEL_CLOSES + why.ordinal(), 1);
        add(TUNNEL_BYTES_IN, bytesFromClient);
        add(TUNNEL_BYTES_OUT, bytesToClient);
        add(TUNNEL_MICROS, lifeNanos / 1000);
    }

    /** A request of this vhost is sent upstream again after an attempt failed for {@code why}. */
    public void retried(RetryReason why) {
        add(RETRIES + why.ordinal(), 1);
    }

    /** A retry the vhost's settings allowed was not made: the retry budget was spent. */
    public void retryBudgetExhausted() {
        add(RETRY_BUDGET_EXHAUSTED, 1);
    }

    /**
     * Moves what was recorded since the last call into both the interval and the cumulative histograms; called by
     * the aggregator only.
     */
    void drainLatency(Histogram interval, Histogram cumulative, Histogram upstreamInterval,
                      Histogram upstreamCumulative) {
        SingleWriterRecorder total = latency;
        if (total != null) {
            spareLatency = total.getIntervalHistogram(spareLatency);
            interval.add(spareLatency);
            cumulative.add(spareLatency);
        }
        SingleWriterRecorder upstream = upstreamLatency;
        if (upstream != null) {
            spareUpstreamLatency = upstream.getIntervalHistogram(spareUpstreamLatency);
            upstreamInterval.add(spareUpstreamLatency);
            upstreamCumulative.add(spareUpstreamLatency);
        }
    }

    private static SingleWriterRecorder newRecorder() {
        return new SingleWriterRecorder(1, HIGHEST_MICROS, DIGITS);
    }

    private static long clampMicros(long nanos) {
        long micros = nanos / 1000;
        return micros < 1 ? 1 : Math.min(micros, HIGHEST_MICROS);
    }
}
