package dev.portico.control.store;

import dev.portico.telemetry.analytics.AnalyticsSettings;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;

/**
 * Deletes traffic buckets older than {@code portico.analytics.retention}, every {@code purge-interval}. Replicas
 * each run it; deleting the same old rows twice is harmless.
 */
@ApplicationScoped
public class AnalyticsRetention {

    private static final Logger LOG = Logger.getLogger(AnalyticsRetention.class);

    private final TrafficStore store;
    private final Duration retention;

    public AnalyticsRetention(TrafficStore store, AnalyticsSettings config) {
        this.store = store;
        this.retention = config.retention();
    }

    @Scheduled(every = "${portico.analytics.purge-interval}", delayed = "${portico.analytics.purge-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledPurge() {
        try {
            purge();
        } catch (RuntimeException e) {
            LOG.warnf("Traffic analytics: deleting old buckets failed, trying again later: %s", e.getMessage());
        }
    }

    /** Deletes the buckets that start more than the retention before now; returns how many. */
    public long purge() {
        long deleted = store.deleteBefore(Instant.now().minus(retention));
        if (deleted > 0) {
            LOG.debugf("Traffic analytics: deleted %d buckets older than %s", deleted, retention);
        }
        return deleted;
    }
}
