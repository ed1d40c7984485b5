package dev.portico.telemetry.analytics.offloop;

import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The open bucket of one vhost on the analytics thread: exact counters, and one frequent-items sketch per dimension
 * that keeps at most {@code sketchSize} distinct keys however many a minute brings (Misra-Gries heavy hitters).
 * Counts stay exact while a bucket sees fewer distinct keys than about three quarters of the sketch size; beyond
 * that the stored counts are the sketch's lower bounds, so they are never over-reported.
 */
final class VhostMinute {

    private final UUID vhostId;
    private final long startMillis;
    private final DimensionKeys keys;
    private final ItemsSketch<String> paths;
    private final ItemsSketch<String> clients;
    private final ItemsSketch<String> agents;
    private final ItemsSketch<String> referrers;
    private final long[] status = new long[5];
    private long requests;
    private long bytesIn;
    private long bytesOut;

    VhostMinute(UUID vhostId, long startMillis, DimensionKeys keys, int sketchSize) {
        this.vhostId = vhostId;
        this.startMillis = startMillis;
        this.keys = keys;
        this.paths = new ItemsSketch<>(sketchSize);
        this.clients = new ItemsSketch<>(sketchSize);
        this.agents = new ItemsSketch<>(sketchSize);
        this.referrers = new ItemsSketch<>(sketchSize);
    }

    void add(Sample sample) {
        requests++;
        bytesIn += sample.bytesIn();
        bytesOut += sample.bytesOut();
        int statusClass = sample.status() / 100;
        if (statusClass >= 1 && statusClass <= 5) {
            status[statusClass - 1]++;
        }
        paths.update(keys.path(sample.target()));
        clients.update(keys.client(sample.peer(), sample.forwardedFor()));
        agents.update(keys.agent(sample.userAgent()));
        String referrer = keys.referrer(sample.referrer());
        if (referrer != null) {
            referrers.update(referrer);
        }
    }

    long requests() {
        return requests;
    }

    /** The bucket as it is stored: counters and the {@code top} heaviest keys per dimension. */
    TrafficMinute close(int top) {
        TrafficCounts counts = new TrafficCounts(requests, bytesIn, bytesOut, status[0], status[1], status[2],
                status[3], status[4]);
        return new TrafficMinute(vhostId, Instant.ofEpochMilli(startMillis), counts, top(paths, top, false),
                top(clients, top, false), top(agents, top, true), top(referrers, top, false));
    }

    private static List<TopItem> top(ItemsSketch<String> sketch, int n, boolean classify) {
        if (sketch.isEmpty()) {
            return List.of();
        }
        // NO_FALSE_NEGATIVES lists every key the sketch still tracks.
        ItemsSketch.Row<String>[] rows = sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES);
        List<TopItem> items = new ArrayList<>(rows.length);
        for (ItemsSketch.Row<String> row : rows) {
            if (row.getLowerBound() > 0) {
                items.add(new TopItem(row.getItem(), row.getLowerBound()));
            }
        }
        items.sort(TopCounter.ORDER);
        List<TopItem> top = new ArrayList<>(Math.min(n, items.size()));
        for (int i = 0; i < items.size() && i < n; i++) {
            TopItem item = items.get(i);
            top.add(classify ? new TopItem(item.key(), item.count(), UserAgentClass.of(item.key()).code()) : item);
        }
        return List.copyOf(top);
    }
}
