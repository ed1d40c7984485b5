package dev.portico.proxy.core.counters;

import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.TunnelClose;
import org.HdrHistogram.Histogram;

/**
 * The live statistics of one vhost: a {@link LoopSlot} per event loop for the hot path, summed on demand. Lives as
 * long as the vhost does, across snapshots. Nothing here takes a lock: the event loops write only their own slots,
 * and the readers' bookkeeping (the interval and cumulative histograms the aggregator and the Prometheus scrape
 * keep) lives with those readers, in {@code telemetry.stats.offloop}.
 */
public final class VhostStats {

    private final String name;
    private final LoopSlot[] slots;

    public VhostStats(String name, int loops) {
        this.name = name;
        this.slots = new LoopSlot[loops];
        for (int i = 0; i < loops; i++) {
            slots[i] = new LoopSlot();
        }
    }

    public String name() {
        return name;
    }

    /** The slot event loop {@code loopIndex} writes. */
    public LoopSlot slot(int loopIndex) {
        return slots[loopIndex];
    }

    /** Requests started less those completed, over every loop: one opaque load per loop and counter. */
    public long inFlight() {
        long inFlight = 0;
        for (LoopSlot slot : slots) {
            inFlight += slot.read(LoopSlot.STARTED) - slot.read(LoopSlot.REQUESTS);
        }
        return inFlight;
    }

    /**
     * Sums the slots' counters as of now, from any thread: each counter is one opaque load, so the sum is as of
     * "now" counter by counter, as it always was (the loops never stopped writing while it was taken).
     */
    public Totals totals() {
        long[] sum = new long[LoopSlot.SIZE];
        for (LoopSlot slot : slots) {
            for (int i = 0; i < LoopSlot.SIZE; i++) {
                sum[i] += slot.read(i);
            }
        }
        return new Totals(sum);
    }

    /**
     * Moves what every loop recorded since the last call into both the interval and the cumulative histograms.
     * The slots hand back the reader's spare histograms, so calls must never overlap: only the statistics' reader
     * side calls this, one call at a time (it serialises its aggregator and its scrapes).
     */
    public void drainLatency(Histogram interval, Histogram cumulative, Histogram upstreamInterval,
                             Histogram upstreamCumulative) {
        for (LoopSlot slot : slots) {
            slot.drainLatency(interval, cumulative, upstreamInterval, upstreamCumulative);
        }
    }

    public static Histogram newHistogram() {
        return new Histogram(1, LoopSlot.HIGHEST_MICROS, LoopSlot.DIGITS);
    }

    /** Counter sums across loops. */
    public record Totals(long[] counts) {
        public long requests() {
            return counts[LoopSlot.REQUESTS];
        }

        public long inFlight() {
            return Math.max(0, counts[LoopSlot.STARTED] - counts[LoopSlot.REQUESTS]);
        }

        public long bytesIn() {
            return counts[LoopSlot.BYTES_IN];
        }

        public long bytesOut() {
            return counts[LoopSlot.BYTES_OUT];
        }

        public long statusClass(int statusClass) {
            return counts[LoopSlot.STATUS_1XX + statusClass - 1];
        }

        public long reason(LocalReason reason) {
            return counts[LoopSlot.REASONS + reason.ordinal()];
        }

        public long cache(CacheOutcome outcome) {
            return counts[LoopSlot.CACHE + outcome.ordinal()];
        }

        /** Tunnels (switched connections) open now. */
        public long tunnelsOpen() {
            long closed = 0;
            for (TunnelClose why : TunnelClose.values()) {
                closed += tunnelsClosed(why);
            }
            return Math.max(0, counts[LoopSlot.TUNNELS_OPENED] - closed);
        }

        public long tunnelsClosed(TunnelClose why) {
            return counts[LoopSlot.TUNNEL_CLOSES + why.ordinal()];
        }

        /** Bytes closed tunnels carried from the client to the upstream. */
        public long tunnelBytesIn() {
            return counts[LoopSlot.TUNNEL_BYTES_IN];
        }

        /** Bytes closed tunnels carried from the upstream to the client. */
        public long tunnelBytesOut() {
            return counts[LoopSlot.TUNNEL_BYTES_OUT];
        }

        /** The lifetimes of the closed tunnels, summed. */
        public double tunnelSeconds() {
            return counts[LoopSlot.TUNNEL_MICROS] / 1_000_000.0;
        }
    }

    /** One aggregation interval of a vhost. */
    public record Interval(Totals totals, long requestsInInterval, Latency latency, Latency upstreamLatency) {
    }

    /** Prometheus view of the cumulative histograms. */
    public record CumulativeLatency(long[] buckets, long count, double sumSeconds, long[] upstreamBuckets,
                                    long upstreamCount, double upstreamSumSeconds) {

        /** The counts of both histograms at or below each bound (in seconds), their totals and sums. */
        public static CumulativeLatency of(Histogram latency, Histogram upstream, double[] boundsSeconds) {
            return new CumulativeLatency(bucketCounts(latency, boundsSeconds), latency.getTotalCount(),
                    sumSeconds(latency), bucketCounts(upstream, boundsSeconds), upstream.getTotalCount(),
                    sumSeconds(upstream));
        }

        private static long[] bucketCounts(Histogram histogram, double[] boundsSeconds) {
            long[] counts = new long[boundsSeconds.length];
            for (int i = 0; i < boundsSeconds.length; i++) {
                long micros = (long) Math.min(LoopSlot.HIGHEST_MICROS, boundsSeconds[i] * 1_000_000);
                counts[i] = histogram.getCountBetweenValues(0, micros);
            }
            return counts;
        }

        private static double sumSeconds(Histogram histogram) {
            // HdrHistogram keeps counts, not the sum; the mean times the count is exact to the histogram's precision.
            return histogram.getTotalCount() == 0 ? 0
                    : histogram.getMean() * histogram.getTotalCount() / 1_000_000.0;
        }
    }
}
