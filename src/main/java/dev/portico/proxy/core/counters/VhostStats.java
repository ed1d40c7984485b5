package dev.portico.proxy.core.counters;

import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import org.HdrHistogram.Histogram;

/**
 * The live statistics of one vhost: a {@link LoopSlot} per event loop for the hot path, and the merged view the
 * aggregator keeps (totals, the histogram of the current interval, the cumulative histogram behind the
 * Prometheus buckets). Lives as long as the vhost does, across snapshots.
 */
public final class VhostStats {

    private final String name;
    private final LoopSlot[] slots;

    // Aggregator state, guarded by this object's monitor.
    private final Histogram intervalLatency = newHistogram();
    private final Histogram intervalUpstream = newHistogram();
    private final Histogram cumulativeLatency = newHistogram();
    private final Histogram cumulativeUpstream = newHistogram();
    private long lastRequests;

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

    /** Sums the slots' counters as of now. */
    public synchronized Totals totals() {
        long[] sum = new long[LoopSlot.SIZE];
        for (LoopSlot slot : slots) {
            for (int i = 0; i < LoopSlot.SIZE; i++) {
                sum[i] += slot.read(i);
            }
        }
        return new Totals(sum);
    }

    /** Moves the recorders' latest values into the interval and cumulative histograms. */
    synchronized void drain() {
        for (LoopSlot slot : slots) {
            slot.drainLatency(intervalLatency, cumulativeLatency, intervalUpstream, cumulativeUpstream);
        }
    }

    /**
     * Ends the current interval: its latency summaries and the request count since the previous interval. The
     * interval's histograms are also added to {@code allLatency}/{@code allUpstream}, for the totals.
     */
    public synchronized Interval closeInterval(Histogram allLatency, Histogram allUpstream) {
        drain();
        Totals totals = totals();
        Interval interval = new Interval(totals, totals.requests() - lastRequests, Latency.of(intervalLatency),
                Latency.of(intervalUpstream));
        lastRequests = totals.requests();
        allLatency.add(intervalLatency);
        allUpstream.add(intervalUpstream);
        intervalLatency.reset();
        intervalUpstream.reset();
        return interval;
    }

    /** Counts of the cumulative latency histograms at or below each bound (in seconds), for Prometheus. */
    public synchronized CumulativeLatency cumulative(double[] boundsSeconds) {
        drain();
        return new CumulativeLatency(bucketCounts(cumulativeLatency, boundsSeconds),
                cumulativeLatency.getTotalCount(), sumSeconds(cumulativeLatency),
                bucketCounts(cumulativeUpstream, boundsSeconds), cumulativeUpstream.getTotalCount(),
                sumSeconds(cumulativeUpstream));
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
        return histogram.getTotalCount() == 0 ? 0 : histogram.getMean() * histogram.getTotalCount() / 1_000_000.0;
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
    }

    /** One aggregation interval of a vhost. */
    public record Interval(Totals totals, long requestsInInterval, Latency latency, Latency upstreamLatency) {
    }

    /** Prometheus view of the cumulative histograms. */
    public record CumulativeLatency(long[] buckets, long count, double sumSeconds, long[] upstreamBuckets,
                                    long upstreamCount, double upstreamSumSeconds) {
    }
}
