package dev.portico.telemetry.analytics.offloop;

import dev.portico.http.TrustedProxies;
import dev.portico.telemetry.Drops;
import org.apache.datasketches.frequencies.ItemsSketch;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rollup on the analytics thread: buckets per vhost and minute, bounded keys, closing after the grace period. */
class TrafficRollupTest {

    private static final long MINUTE = 60_000;
    private static final long T0 = 1_714_564_800_000L; // 2024-05-01T12:00:00Z
    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();

    private final SampleQueues queues = new SampleQueues(1, 1 << 16, new Drops());
    private final TrafficRollup rollup = new TrafficRollup(queues,
            new DimensionKeys(TrustedProxies.parse(List.of("10.0.0.0/8"))),
            new TrafficRollup.Settings(MINUTE, 200, 64, 20));

    @Test
    void countsEveryDimensionPerVhostAndMinute() {
        offer(A, T0 + 1_000, 200, "/a?x=1", "127.0.0.1", null, "curl/8.0", null, 10, 100);
        offer(A, T0 + 2_000, 200, "/a?x=2", "127.0.0.1", null, "curl/8.0", "https://ref.example/", 0, 50);
        offer(A, T0 + 3_000, 404, "/b", "::1", null, null, "", 0, 7);
        offer(A, T0 + 4_000, 499, "/b", "10.0.0.5", "203.0.113.9, 10.0.0.7", "Mozilla/5.0 (X11) Firefox/125.0",
                null, 0, 0);
        offer(B, T0 + 5_000, 503, "/", "127.0.0.1", null, "okhttp/4.12.0", null, 0, 3);

        assertTrue(rollup.drain(T0 + 30_000).isEmpty(), "the minute is still open");
        assertTrue(rollup.drain(T0 + MINUTE + 100).isEmpty(), "still open during the grace period");
        List<TrafficMinute> closed = rollup.drain(T0 + MINUTE + 200);
        assertEquals(2, closed.size());
        TrafficMinute a = closed.stream().filter(m -> m.vhostId().equals(A)).findFirst().orElseThrow();

        assertEquals(Instant.ofEpochMilli(T0), a.minute());
        assertEquals(new TrafficCounts(4, 10, 157, 0, 2, 0, 2, 0), a.counts());
        assertEquals(List.of(new TopItem("/a", 2), new TopItem("/b", 2)), a.paths());
        assertEquals(List.of(new TopItem("127.0.0.1", 2), new TopItem("203.0.113.9", 1), new TopItem("::1", 1)),
                a.clients(), "behind a trusted proxy the forwarded address counts");
        assertEquals(List.of(new TopItem("curl/8.0", 2, "tool"), new TopItem("-", 1, "unknown"),
                new TopItem("Mozilla/5.0 (X11) Firefox/125.0", 1, "browser")), a.agents());
        assertEquals(List.of(new TopItem("https://ref.example/", 1)), a.referrers());
        assertEquals(0, rollup.openBuckets());
    }

    @Test
    void keepsABoundedNumberOfKeysAndFindsTheHeavyHitters() {
        // 3 heavy paths among 5,000 distinct ones hit twice each, far more than the 64 keys the sketch holds
        for (int i = 0; i < 5_000; i++) {
            offer(A, T0 + i, 200, "/noise/" + i, "192.0.2." + (i % 250), null, "agent-" + i, null, 0, 0);
            offer(A, T0 + i, 200, "/noise/" + i, "192.0.2." + (i % 250), null, "agent-" + i, null, 0, 0);
            if (i % 5 == 0) {
                offer(A, T0 + i, 200, "/hot/1", "198.51.100.1", null, "curl/8.0", null, 0, 0);
            }
            if (i % 10 == 0) {
                offer(A, T0 + i, 200, "/hot/2", "198.51.100.1", null, "curl/8.0", null, 0, 0);
            }
            if (i % 20 == 0) {
                offer(A, T0 + i, 200, "/hot/3", "198.51.100.1", null, "curl/8.0", null, 0, 0);
            }
        }
        TrafficMinute minute = rollup.drainAll().get(0);

        assertEquals(10_000 + 1_000 + 500 + 250, minute.counts().requests(), "the counters stay exact");
        assertTrue(minute.paths().size() >= 3 && minute.paths().size() <= 20, "stored: " + minute.paths().size());
        assertTrue(minute.agents().size() >= 1 && minute.agents().size() <= 20);
        assertTrue(minute.clients().size() <= 20);
        assertEquals(List.of("/hot/1", "/hot/2", "/hot/3"),
                minute.paths().subList(0, 3).stream().map(TopItem::key).toList());
        assertEquals("198.51.100.1", minute.clients().get(0).key());
        assertEquals("curl/8.0", minute.agents().get(0).key());
        // Misra-Gries: a count is a lower bound, short by at most the sketch's error for this stream length
        double error = ItemsSketch.getAprioriError(64, minute.counts().requests());
        for (int i = 0; i < 3; i++) {
            long exact = new long[]{1_000, 500, 250}[i];
            long counted = minute.paths().get(i).count();
            assertTrue(counted <= exact && counted >= exact - error,
                    "a heavy hitter's count is a lower bound within the error: " + counted + " of " + exact);
        }
    }

    @Test
    void cutsLongValuesAndDropsTheQueryString() {
        String longPath = "/" + "p".repeat(2_000) + "?q=1";
        String longAgent = "Mozilla/5.0 " + "x".repeat(1_000);
        offer(A, T0, 200, longPath, "127.0.0.1", null, longAgent, "https://r.example/" + "y".repeat(1_000), 0, 0);
        TrafficMinute minute = rollup.drainAll().get(0);
        assertEquals(DimensionKeys.MAX_PATH, minute.paths().get(0).key().length());
        assertEquals(DimensionKeys.MAX_AGENT, minute.agents().get(0).key().length());
        assertEquals(DimensionKeys.MAX_REFERRER, minute.referrers().get(0).key().length());
        assertEquals("browser", minute.agents().get(0).agentClass());
    }

    @Test
    void aLateSampleReopensItsMinuteAndDrainAllClosesTheCurrentOne() {
        offer(A, T0 + 59_999, 200, "/", "127.0.0.1", null, null, null, 0, 0);
        assertEquals(1, rollup.drain(T0 + MINUTE + 500).size());
        offer(A, T0 + 59_999, 200, "/", "127.0.0.1", null, null, null, 0, 0);
        offer(A, T0 + MINUTE + 1, 200, "/", "127.0.0.1", null, null, null, 0, 0);
        List<TrafficMinute> closed = rollup.drain(T0 + MINUTE + 700);
        assertEquals(1, closed.size(), "the late sample's minute closes again; the store adds it to the row");
        assertEquals(Instant.ofEpochMilli(T0), closed.get(0).minute());
        List<TrafficMinute> rest = rollup.drainAll();
        assertEquals(Instant.ofEpochMilli(T0 + MINUTE), rest.get(0).minute());
    }

    private void offer(UUID vhost, long time, int status, String target, String peer, String forwardedFor,
                       String agent, String referrer, long bytesIn, long bytesOut) {
        assertTrue(queues.offer(0, new Sample(vhost, time, status, bytesIn, bytesOut, target, peer, forwardedFor,
                agent, referrer)));
    }
}
