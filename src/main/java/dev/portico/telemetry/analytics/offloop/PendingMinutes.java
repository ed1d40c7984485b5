package dev.portico.telemetry.analytics.offloop;

import dev.portico.telemetry.Drops;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Closed buckets the database has not taken yet, oldest first. Bounded by bucket count: while the database is down
 * the rollup keeps the last {@code maxBuckets} bucket periods and drops older ones, counting their requests in
 * {@link Drops.Kind#ANALYTICS_SAMPLES}. Shared by the analytics thread (adds) and the writer (takes, puts back).
 */
final class PendingMinutes {

    private static final Logger LOG = Logger.getLogger(PendingMinutes.class);

    private final int maxBuckets;
    private final int top;
    private final Drops drops;
    private final TreeMap<Instant, Map<UUID, TrafficMinute>> buckets = new TreeMap<>();

    PendingMinutes(int maxBuckets, int top, Drops drops) {
        this.maxBuckets = Math.max(1, maxBuckets);
        this.top = top;
        this.drops = drops;
    }

    /** Adds closed buckets; one already waiting for the same vhost and start is merged with it. */
    synchronized void add(List<TrafficMinute> closed) {
        for (TrafficMinute minute : closed) {
            buckets.computeIfAbsent(minute.minute(), m -> new LinkedHashMap<>())
                    .merge(minute.vhostId(), minute, (a, b) -> a.merge(b, top));
        }
        while (buckets.size() > maxBuckets) {
            Map.Entry<Instant, Map<UUID, TrafficMinute>> oldest = buckets.pollFirstEntry();
            long samples = 0;
            for (TrafficMinute minute : oldest.getValue().values()) {
                samples += minute.counts().requests();
            }
            drops.add(Drops.Kind.ANALYTICS_SAMPLES, samples);
            LOG.warnf("Traffic analytics: dropped the bucket of %s (%d requests) that the database did not take; "
                    + "%d newer buckets are waiting", oldest.getKey(), samples, buckets.size());
        }
    }

    /** Removes and returns every vhost's bucket of the oldest waiting period, or null when nothing waits. */
    synchronized List<TrafficMinute> takeOldest() {
        Map.Entry<Instant, Map<UUID, TrafficMinute>> oldest = buckets.pollFirstEntry();
        return oldest == null ? null : new ArrayList<>(oldest.getValue().values());
    }

    /** Gives back buckets the writer could not store, to be tried again. */
    void putBack(List<TrafficMinute> unwritten) {
        add(unwritten);
    }

    /** Bucket periods waiting. */
    synchronized int size() {
        return buckets.size();
    }

    /** Drops everything still waiting (shutdown with the database unreachable), counting it. */
    synchronized long dropAll() {
        long samples = 0;
        for (Map<UUID, TrafficMinute> bucket : buckets.values()) {
            for (TrafficMinute minute : bucket.values()) {
                samples += minute.counts().requests();
            }
        }
        buckets.clear();
        drops.add(Drops.Kind.ANALYTICS_SAMPLES, samples);
        return samples;
    }
}
