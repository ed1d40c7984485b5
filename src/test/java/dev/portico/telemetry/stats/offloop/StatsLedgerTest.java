package dev.portico.telemetry.stats.offloop;

import dev.portico.proxy.core.counters.Latency;
import dev.portico.proxy.core.counters.VhostStats;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The readers' side of the live statistics: intervals and the cumulative Prometheus histograms, drained from the
 * loops' slots by two readers (the aggregator, a scrape) without either losing what the other drained.
 */
class StatsLedgerTest {

    private static final double[] BOUNDS = {0.001, 0.01, 0.1, 1};

    private final StatsLedger ledger = new StatsLedger();
    private final VhostStats stats = new VhostStats("ledger", 2);

    private void request(int loop, long durationMillis) {
        stats.slot(loop).started();
        stats.slot(loop).completed(200, null, 10, 100, durationMillis * 1_000_000, -1, null);
    }

    @Test
    void aScrapeBetweenIntervalsLeavesTheIntervalItsRequests() {
        request(0, 5);
        request(1, 50);
        request(1, 500);

        VhostStats.CumulativeLatency scraped = ledger.cumulative(stats, BOUNDS);
        assertEquals(3, scraped.count());
        assertEquals(0, scraped.buckets()[0]);
        assertEquals(1, scraped.buckets()[1]);
        assertEquals(2, scraped.buckets()[2]);
        assertEquals(3, scraped.buckets()[3]);

        Histogram all = VhostStats.newHistogram();
        Histogram allUpstream = VhostStats.newHistogram();
        VhostStats.Interval interval = ledger.closeInterval(stats, all, allUpstream);
        assertEquals(3, interval.requestsInInterval(), "what the scrape drained still belongs to this interval");
        assertEquals(3, interval.totals().requests());
        assertNotNull(interval.latency().max());
        assertEquals(Latency.NONE, interval.upstreamLatency(), "no upstream answered");
        assertEquals(3, all.getTotalCount());

        request(0, 1);
        VhostStats.Interval next = ledger.closeInterval(stats, VhostStats.newHistogram(), VhostStats.newHistogram());
        assertEquals(1, next.requestsInInterval());
        assertEquals(4, next.totals().requests());
        assertEquals(4, ledger.cumulative(stats, BOUNDS).count(), "the cumulative histogram keeps every request");
    }

    @Test
    void eachVhostHasItsOwnHistograms() {
        VhostStats other = new VhostStats("other", 1);
        request(0, 5);
        other.slot(0).completed(200, null, 0, 0, 1_000_000, -1, null);

        assertEquals(1, ledger.cumulative(stats, BOUNDS).count());
        assertEquals(1, ledger.cumulative(other, BOUNDS).count());
        assertEquals(1, ledger.closeInterval(other, VhostStats.newHistogram(), VhostStats.newHistogram())
                .requestsInInterval());
    }
}
