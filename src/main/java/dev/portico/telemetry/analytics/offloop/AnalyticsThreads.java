package dev.portico.telemetry.analytics.offloop;

import dev.portico.http.TrustedProxies;
import dev.portico.telemetry.Drops;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Traffic analytics' own two threads: the analytics thread drains every loop's {@link SampleQueues} into per-vhost
 * buckets ({@link TrafficRollup}) and hands closed buckets to the writer thread ({@link TrafficWriter}), which stores
 * them through the {@link TrafficSink}. Started and stopped by the data plane's observer, outside the event loops.
 */
public final class AnalyticsThreads {

    /**
     * @param drainMillis how often the analytics thread drains the queues
     * @param bucketMillis bucket length
     * @param sketchSize the top-list sketches' map size (a power of two)
     * @param top entries kept per top list
     * @param maxPendingBuckets bucket periods kept while the database cannot take them
     */
    public record Settings(long drainMillis, long bucketMillis, int sketchSize, int top, int maxPendingBuckets) {
    }

    private static final Logger LOG = Logger.getLogger(AnalyticsThreads.class);

    private final TrafficRollup rollup;
    private final TrafficWriter writer;
    private final ScheduledExecutorService drainer;

    private AnalyticsThreads(TrafficRollup rollup, TrafficWriter writer, ScheduledExecutorService drainer) {
        this.rollup = rollup;
        this.writer = writer;
        this.drainer = drainer;
    }

    /** Starts the writer and the analytics thread, which drains {@code queues} every {@code drainMillis}. */
    public static AnalyticsThreads start(SampleQueues queues, TrustedProxies trusted, Settings settings,
                                         TrafficSink sink, Drops drops) {
        TrafficRollup rollup = new TrafficRollup(queues, new DimensionKeys(trusted),
                new TrafficRollup.Settings(settings.bucketMillis(), settings.drainMillis(), settings.sketchSize(),
                        settings.top()));
        TrafficWriter writer = new TrafficWriter(sink, new PendingMinutes(settings.maxPendingBuckets(),
                settings.top(), drops), drops);
        writer.start(Duration.ofMillis(settings.bucketMillis()));
        ScheduledExecutorService drainer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "portico-analytics");
            thread.setDaemon(true);
            return thread;
        });
        AnalyticsThreads threads = new AnalyticsThreads(rollup, writer, drainer);
        drainer.scheduleWithFixedDelay(threads::drain, settings.drainMillis(), settings.drainMillis(),
                TimeUnit.MILLISECONDS);
        return threads;
    }

    /**
     * Stops the analytics thread, hands the open buckets to the writer and lets it store what it can within
     * {@code writerWait}; what is left is dropped and counted.
     */
    public void stop(Duration writerWait) {
        drainer.shutdown();
        try {
            if (drainer.awaitTermination(5, TimeUnit.SECONDS)) {
                // The drainer has stopped, so this thread owns the rollup now: the partial bucket goes out too.
                writer.submit(rollup.drainAll());
            } else {
                LOG.warn("Traffic analytics: the last drain did not finish in time; the open buckets are lost");
                drainer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drainer.shutdownNow();
        }
        writer.stop(writerWait);
    }

    private void drain() {
        try {
            writer.submit(rollup.drain(System.currentTimeMillis()));
        } catch (RuntimeException e) {
            LOG.error("Traffic analytics: rolling up samples failed", e);
        }
    }
}
