package dev.portico.telemetry.analytics.offloop;

import dev.portico.telemetry.Drops;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** While the database is down, closed buckets wait in memory, but only the newest few, and the writer retries. */
class PendingMinutesTest {

    private static final UUID VHOST = UUID.randomUUID();

    private final Drops drops = new Drops();

    @Test
    void keepsTheNewestBucketsAndCountsTheDroppedRequests() {
        PendingMinutes pending = new PendingMinutes(3, 20, drops);
        for (int m = 0; m < 5; m++) {
            pending.add(List.of(minute(m, 10 + m)));
        }
        assertEquals(3, pending.size());
        assertEquals(10 + 11, drops.count(Drops.Kind.ANALYTICS_SAMPLES), "the two oldest minutes' requests");
        assertEquals(Instant.ofEpochSecond(120), pending.takeOldest().get(0).minute());
    }

    @Test
    void mergesTheSameVhostAndMinute() {
        PendingMinutes pending = new PendingMinutes(3, 20, drops);
        pending.add(List.of(minute(0, 2)));
        pending.add(List.of(minute(0, 3)));
        List<TrafficMinute> oldest = pending.takeOldest();
        assertEquals(1, oldest.size());
        assertEquals(5, oldest.get(0).counts().requests());
        assertEquals(List.of(new TopItem("/", 5)), oldest.get(0).paths());
        assertNull(pending.takeOldest());
    }

    @Test
    void aFailedWriteStaysPendingUntilTheDatabaseIsBack() {
        PendingMinutes pending = new PendingMinutes(10, 20, drops);
        AtomicBoolean down = new AtomicBoolean(true);
        List<TrafficMinute> stored = new ArrayList<>();
        TrafficWriter writer = new TrafficWriter(minutes -> {
            if (down.get()) {
                throw new IllegalStateException("database down");
            }
            stored.addAll(minutes);
        }, pending, drops);
        pending.add(List.of(minute(0, 1), minute(1, 2)));

        writer.writePending();
        assertEquals(2, pending.size());
        assertEquals(List.of(), stored);

        down.set(false);
        writer.writePending();
        assertEquals(0, pending.size());
        assertEquals(List.of(Instant.ofEpochSecond(0), Instant.ofEpochSecond(60)),
                stored.stream().map(TrafficMinute::minute).toList(), "oldest first");
    }

    private static TrafficMinute minute(int index, long requests) {
        return new TrafficMinute(VHOST, Instant.ofEpochSecond(60L * index),
                new TrafficCounts(requests, 0, 0, 0, requests, 0, 0, 0), List.of(new TopItem("/", requests)),
                List.of(), List.of(), List.of());
    }
}
