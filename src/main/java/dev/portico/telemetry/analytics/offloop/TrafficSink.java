package dev.portico.telemetry.analytics.offloop;

import java.util.List;

/**
 * Where closed buckets go (the control plane's store, in PostgreSQL): one call per bucket period, or per bucket
 * after a refusal, all or nothing. Called on the analytics writer thread only, never on an event loop.
 */
@FunctionalInterface
public interface TrafficSink {

    /**
     * Stores the buckets, adding to what is stored for the same vhost and start.
     *
     * @throws BucketRefused when a bucket cannot be stored however often it is tried (its data is at fault)
     */
    void save(List<TrafficMinute> minutes);
}
