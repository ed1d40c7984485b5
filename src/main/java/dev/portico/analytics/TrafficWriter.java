package dev.portico.analytics;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes closed buckets on its own thread, oldest first, so a slow or unreachable database never holds up the
 * drains. A failed write stays pending and is retried when the next bucket closes, and once per bucket length.
 */
final class TrafficWriter {

    /** Where buckets go: one call per bucket period, all or nothing. */
    @FunctionalInterface
    interface Sink {
        void save(List<TrafficMinute> minutes);
    }

    private static final Logger LOG = Logger.getLogger(TrafficWriter.class);

    private final Sink sink;
    private final PendingMinutes pending;
    private final AtomicBoolean queued = new AtomicBoolean();
    private ScheduledExecutorService thread;
    // Writer thread only: log the first failure of an outage, and its end, not every retry.
    private boolean failing;

    TrafficWriter(Sink sink, PendingMinutes pending) {
        this.sink = sink;
        this.pending = pending;
    }

    void start(Duration retryEvery) {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "portico-analytics-writer");
            t.setDaemon(true);
            return t;
        });
        long retry = Math.max(1, retryEvery.toMillis());
        thread.scheduleWithFixedDelay(this::writePending, retry, retry, TimeUnit.MILLISECONDS);
    }

    /** Queues closed buckets and wakes the writer; never blocks on the database. */
    void submit(List<TrafficMinute> closed) {
        if (closed.isEmpty()) {
            return;
        }
        pending.add(closed);
        if (queued.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    queued.set(false);
                    writePending();
                });
            } catch (RejectedExecutionException stopped) {
                queued.set(false);
            }
        }
    }

    /** Writes what is pending, oldest bucket first, until it is all written or a write fails. */
    void writePending() {
        List<TrafficMinute> batch;
        while ((batch = pending.takeOldest()) != null) {
            try {
                sink.save(batch);
            } catch (RuntimeException e) {
                pending.putBack(batch);
                if (!failing) {
                    LOG.warnf("Traffic analytics: cannot store buckets, keeping at most the last buckets in memory "
                            + "and retrying: %s", rootMessage(e));
                }
                failing = true;
                return;
            }
        }
        if (failing) {
            LOG.info("Traffic analytics: storing buckets again");
            failing = false;
        }
    }

    /** Writes what is pending one last time, waiting up to {@code wait}; what is left is dropped and counted. */
    void stop(Duration wait) {
        if (thread == null) {
            return;
        }
        thread.execute(this::writePending);
        thread.shutdown();
        try {
            if (!thread.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
        long lost = pending.dropAll();
        if (lost > 0) {
            LOG.warnf("Traffic analytics: %d requests were not stored at shutdown", lost);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
