package dev.portico.telemetry.analytics.offloop;

import org.jctools.queues.MessagePassingQueue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The open buckets, owned by the analytics thread: drains the loops' queues into the bucket of each sample's vhost
 * and completion time, and closes a bucket one drain interval after it ends, when every sample completed inside it
 * has been drained. A sample that still arrives later opens the bucket again; the store adds it to the same row.
 */
final class TrafficRollup {

    /** Rollup settings: bucket length, how long past its end a bucket stays open, sketch and top-list sizes. */
    record Settings(long bucketMillis, long graceMillis, int sketchSize, int top) {
    }

    private final SampleQueues queues;
    private final DimensionKeys keys;
    private final Settings settings;
    private final TreeMap<Long, Map<UUID, VhostMinute>> open = new TreeMap<>();
    private final MessagePassingQueue.Consumer<Sample> adder = this::add;

    TrafficRollup(SampleQueues queues, DimensionKeys keys, Settings settings) {
        this.queues = queues;
        this.keys = keys;
        this.settings = settings;
    }

    /** Drains the queues and returns the buckets that ended at least the grace period before {@code nowMillis}. */
    List<TrafficMinute> drain(long nowMillis) {
        queues.drain(adder);
        return closeEndedBy(nowMillis - settings.graceMillis());
    }

    /** Drains the queues and closes every bucket, the current one included (shutdown). */
    List<TrafficMinute> drainAll() {
        queues.drain(adder);
        return closeEndedBy(Long.MAX_VALUE);
    }

    void add(Sample sample) {
        long bucket = settings.bucketMillis();
        long start = Math.floorDiv(sample.timeMillis(), bucket) * bucket;
        open.computeIfAbsent(start, s -> new HashMap<>())
                .computeIfAbsent(sample.vhostId(), id -> new VhostMinute(id, start, keys, settings.sketchSize()))
                .add(sample);
    }

    /** How many buckets are open (one per bucket start and vhost). */
    int openBuckets() {
        int n = 0;
        for (Map<UUID, VhostMinute> byVhost : open.values()) {
            n += byVhost.size();
        }
        return n;
    }

    private List<TrafficMinute> closeEndedBy(long limitMillis) {
        List<TrafficMinute> closed = new ArrayList<>();
        Iterator<Map.Entry<Long, Map<UUID, VhostMinute>>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Map<UUID, VhostMinute>> bucket = it.next();
            if (limitMillis != Long.MAX_VALUE && bucket.getKey() + settings.bucketMillis() > limitMillis) {
                break;
            }
            for (VhostMinute minute : bucket.getValue().values()) {
                closed.add(minute.close(settings.top()));
            }
            it.remove();
        }
        return closed;
    }
}
