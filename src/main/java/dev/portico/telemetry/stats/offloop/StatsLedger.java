package dev.portico.telemetry.stats.offloop;

import dev.portico.proxy.core.counters.Latency;
import dev.portico.proxy.core.counters.VhostStats;
import jakarta.inject.Singleton;
import org.HdrHistogram.Histogram;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * The readers' side of the live statistics: for every vhost, the histogram of the current interval, the cumulative
 * histogram behind the Prometheus buckets and the request count at the end of the last interval. Two threads read,
 * never an event loop: the aggregator once a second ({@link #closeInterval}) and a Prometheus scrape
 * ({@link #cumulative}); a vhost's monitor keeps them from draining its loops' recorders at the same time. The event
 * loops only write their own {@link dev.portico.proxy.core.counters.LoopSlot}s and never wait for either.
 */
@Singleton
public class StatsLedger {

    /** One vhost's reader state; its monitor serialises the drains of that vhost's slots. */
    private static final class Entry {
        final Histogram intervalLatency = VhostStats.newHistogram();
        final Histogram intervalUpstream = VhostStats.newHistogram();
        final Histogram cumulativeLatency = VhostStats.newHistogram();
        final Histogram cumulativeUpstream = VhostStats.newHistogram();
        long lastRequests;

        void drain(VhostStats stats) {
            stats.drainLatency(intervalLatency, cumulativeLatency, intervalUpstream, cumulativeUpstream);
        }
    }

    // Weak keys: a vhost the registry forgets (deleted) takes its histograms with it.
    private final Map<VhostStats, Entry> entries = new WeakHashMap<>();

    private Entry entry(VhostStats stats) {
        synchronized (entries) {
            return entries.computeIfAbsent(stats, s -> new Entry());
        }
    }

    /**
     * Ends the vhost's current interval: its latency summaries and the request count since the previous interval.
     * The interval's histograms are also added to {@code allLatency}/{@code allUpstream}, for the totals.
     */
    public VhostStats.Interval closeInterval(VhostStats stats, Histogram allLatency, Histogram allUpstream) {
        Entry e = entry(stats);
        synchronized (e) {
            e.drain(stats);
            VhostStats.Totals totals = stats.totals();
            VhostStats.Interval interval = new VhostStats.Interval(totals, totals.requests() - e.lastRequests,
                    Latency.of(e.intervalLatency), Latency.of(e.intervalUpstream));
            e.lastRequests = totals.requests();
            allLatency.add(e.intervalLatency);
            allUpstream.add(e.intervalUpstream);
            e.intervalLatency.reset();
            e.intervalUpstream.reset();
            return interval;
        }
    }

    /** Counts of the vhost's cumulative latency histograms at or below each bound (in seconds), for Prometheus. */
    public VhostStats.CumulativeLatency cumulative(VhostStats stats, double[] boundsSeconds) {
        Entry e = entry(stats);
        synchronized (e) {
            e.drain(stats);
            return VhostStats.CumulativeLatency.of(e.cumulativeLatency, e.cumulativeUpstream, boundsSeconds);
        }
    }
}
