package dev.portico.telemetry.accesslog.offloop;

import dev.portico.telemetry.Drops;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts dropped access-log lines in {@link Drops.Kind#ACCESS_LOG_LINES} and says so in the application log at most once
 * a minute, so a full disk cannot turn into a log storm. Called from event loops and the writer; only the (rare)
 * drop path touches it.
 */
public final class DropWarning {

    private static final Logger LOG = Logger.getLogger(DropWarning.class);
    static final long INTERVAL_NANOS = 60_000_000_000L;

    private final Drops drops;
    private final LongAdder sinceWarning = new LongAdder();
    private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);

    public DropWarning(Drops drops) {
        this.drops = drops;
    }

    public void dropped(int lines, String why, Throwable cause) {
        drops.add(Drops.Kind.ACCESS_LOG_LINES, lines);
        sinceWarning.add(lines);
        long now = System.nanoTime();
        long last = lastWarning.get();
        if (now - last >= INTERVAL_NANOS && lastWarning.compareAndSet(last, now)) {
            long count = sinceWarning.sumThenReset();
            if (cause == null) {
                LOG.warnf("Access log: dropped %d lines (%s); the proxy keeps serving", count, why);
            } else {
                LOG.warnf("Access log: dropped %d lines (%s: %s); the proxy keeps serving", count, why,
                        cause.toString());
            }
        }
    }
}
