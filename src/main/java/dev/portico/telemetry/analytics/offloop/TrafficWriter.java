package dev.portico.telemetry.analytics.offloop;

import dev.portico.telemetry.Drops;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes closed buckets on its own thread, oldest first, so a slow or unreachable database never holds up the
 * drains. A write that fails because the database cannot be reached stays pending and is retried when the next
 * bucket closes, and once per bucket length. A write the database refuses (the data, not the database, is at fault:
 * SQLState class 22 or 23, or a stored row that cannot be read) would fail the same way forever and hold every
 * later bucket behind it: then each vhost's bucket of that period is written on its own, and the ones still refused
 * are dropped and counted in {@link Drops.Kind#ANALYTICS_REFUSED}, so one bad row never costs the others.
 */
final class TrafficWriter {

    /** SQLState classes of a statement's own fault: data exception, integrity constraint violation. */
    private static final Set<String> REFUSAL_CLASSES = Set.of("22", "23");

    private static final Logger LOG = Logger.getLogger(TrafficWriter.class);

    private final TrafficSink sink;
    private final Drops drops;
    private final PendingMinutes pending;
    private final AtomicBoolean queued = new AtomicBoolean();
    private ScheduledExecutorService thread;
    // Writer thread only: log the first failure of an outage, and its end, not every retry.
    private boolean failing;

    TrafficWriter(TrafficSink sink, PendingMinutes pending, Drops drops) {
        this.sink = sink;
        this.drops = drops;
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

    /** Writes what is pending, oldest bucket first, until it is all written or the database cannot be reached. */
    void writePending() {
        List<TrafficMinute> batch;
        while ((batch = pending.takeOldest()) != null) {
            List<TrafficMinute> unwritten;
            try {
                sink.save(batch);
                unwritten = List.of();
            } catch (RuntimeException e) {
                if (refused(e)) {
                    unwritten = writeOneByOne(batch);
                } else {
                    outage(e);
                    unwritten = batch;
                }
            }
            if (!unwritten.isEmpty()) {
                pending.putBack(unwritten);
                return;
            }
        }
        if (failing) {
            LOG.info("Traffic analytics: storing buckets again");
        }
        failing = false;
    }

    /**
     * The database refused a period's write: each vhost's bucket alone, so the good ones are stored; the refused
     * ones are dropped and counted. Returns the buckets to retry because the database went away meanwhile.
     */
    private List<TrafficMinute> writeOneByOne(List<TrafficMinute> batch) {
        List<TrafficMinute> retry = new ArrayList<>();
        for (TrafficMinute minute : batch) {
            if (!retry.isEmpty()) {
                retry.add(minute);
                continue;
            }
            try {
                sink.save(List.of(minute));
            } catch (RuntimeException e) {
                if (refused(e)) {
                    drops.add(Drops.Kind.ANALYTICS_REFUSED, minute.counts().requests());
                    LOG.warnf("Traffic analytics: the database refused the bucket of vhost %s at %s; its %d "
                            + "requests are dropped: %s", minute.vhostId(), minute.minute(),
                            minute.counts().requests(), rootMessage(e));
                } else {
                    outage(e);
                    retry.add(minute);
                }
            }
        }
        return retry;
    }

    private void outage(RuntimeException e) {
        if (e instanceof SinkUnreachable) {
            LOG.debugf("Traffic analytics: keeping buckets in memory until the database is back: %s", rootMessage(e));
        } else if (!failing) {
            LOG.warnf("Traffic analytics: cannot store buckets, keeping at most the last buckets in memory "
                    + "and retrying: %s", rootMessage(e));
        }
        failing = true;
    }

    /**
     * Whether the failure is the data's fault, so that trying again can never succeed: PostgreSQL refused the
     * statement's values (NUL in text, a value out of range, a constraint), or a stored row cannot be merged.
     * Anything else (no connection, a timeout, a serialization failure) is worth retrying.
     */
    static boolean refused(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof BucketRefused) {
                return true;
            }
            if (e instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().length() == 5
                    && REFUSAL_CLASSES.contains(sql.getSQLState().substring(0, 2))) {
                return true;
            }
        }
        return false;
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
