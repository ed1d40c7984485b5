package dev.portico.telemetry.analytics;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * Per-vhost traffic analytics: samples handed off the event loops, rolled up per minute by one thread, stored in
 * PostgreSQL and read through {@code GET /api/v1/vhosts/{id}/analytics}.
 * Settings under {@code portico.analytics.*}.
 */
@ConfigMapping(prefix = "portico.analytics")
public interface AnalyticsSettings {
    /** Collect analytics; when off, requests are not sampled (stored buckets stay readable until retention). */
    @WithDefault("true")
    boolean enabled();

    /** Buckets older than this are deleted; also the longest range the API answers in one call. */
    @WithDefault("7d")
    Duration retention();

    /** How often buckets older than the retention are deleted. */
    @WithDefault("10m")
    Duration purgeInterval();

    /** Length of a bucket. A minute; shorter only to make tests fast. */
    @WithDefault("1m")
    Duration bucket();

    /**
     * Samples each event loop can hand over between two drains (rounded up to a power of two);
     * more are dropped and counted.
     */
    @WithDefault("16384")
    int queueSize();

    /** How often the analytics thread drains the event loops' queues. */
    @WithDefault("200ms")
    Duration drainInterval();

    /** Distinct values tracked per dimension, vhost and bucket (heavy hitters; rounded up to a power of two). */
    @WithDefault("128")
    int sketchSize();

    /** Values stored per dimension, vhost and bucket (top paths, clients, user agents, referrers). */
    @WithDefault("20")
    int top();

    /** Closed buckets kept in memory while the database cannot take them; beyond that the oldest are dropped. */
    @WithDefault("10")
    int maxPendingBuckets();
}
