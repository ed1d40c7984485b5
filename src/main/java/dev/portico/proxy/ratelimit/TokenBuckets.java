package dev.portico.proxy.ratelimit;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token buckets by key, shared by every event loop, as the generic cell rate algorithm (GCRA): a bucket is one
 * number, its theoretical arrival time (TAT), the instant it would be full again. A request at {@code now} is let in
 * when {@code max(TAT, now) + interval - now <= burst * interval}, and moves TAT on by one interval: {@code burst}
 * requests at once after a quiet spell, then one per interval. One compare-and-set a request, no lock, no timer.
 *
 * <p>A bucket whose TAT has passed is full, exactly as a bucket that does not exist: dropping it loses nothing. So the
 * table stays bounded by sweeping such idle buckets once it grows past {@code maxKeys}; if a flood of distinct live
 * keys still fills it, arbitrary buckets go too (they start full again), down to three quarters, so sweeps stay rare.
 */
final class TokenBuckets {

    private final ConcurrentHashMap<String, AtomicLong> buckets = new ConcurrentHashMap<>();
    private final long intervalNanos;
    private final long toleranceNanos;
    private final int maxKeys;
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /**
     * @param requestsPerSecond the refill rate
     * @param burst how many requests a full bucket lets in at once
     */
    TokenBuckets(double requestsPerSecond, int burst, int maxKeys) {
        this.intervalNanos = Math.max(1, Math.round(1_000_000_000d / requestsPerSecond));
        this.toleranceNanos = Math.multiplyExact(intervalNanos, (long) burst);
        this.maxKeys = maxKeys;
    }

    /**
     * Takes one request from {@code key}'s bucket at {@code nowNanos} ({@link System#nanoTime()}).
     *
     * @return 0 when the request may pass; otherwise the nanoseconds until one would (more than 0)
     */
    long take(String key, long nowNanos) {
        AtomicLong tat = buckets.get(key);
        if (tat == null) {
            tat = created(key, nowNanos);
        }
        while (true) {
            long old = tat.get();
            long next = Math.max(old, nowNanos) + intervalNanos;
            long ahead = next - nowNanos;
            if (ahead > toleranceNanos) {
                return ahead - toleranceNanos;
            }
            if (tat.compareAndSet(old, next)) {
                return 0;
            }
        }
    }

    /** Requests a full bucket lets in at once. */
    long burst() {
        return toleranceNanos / intervalNanos;
    }

    /** How many keys have a bucket: for tests and diagnostics. */
    int size() {
        return buckets.size();
    }

    private AtomicLong created(String key, long nowNanos) {
        AtomicLong fresh = new AtomicLong(nowNanos);
        AtomicLong raced = buckets.putIfAbsent(key, fresh);
        if (raced != null) {
            return raced;
        }
        if (buckets.size() > maxKeys && sweeping.compareAndSet(false, true)) {
            try {
                sweep(nowNanos);
            } finally {
                sweeping.set(false);
            }
        }
        return fresh;
    }

    /** Drops the full buckets, then, when live keys alone are too many, any, down to three quarters. */
    private void sweep(long nowNanos) {
        buckets.values().removeIf(tat -> tat.get() - nowNanos <= 0);
        int over = buckets.size() - maxKeys * 3 / 4;
        for (Iterator<AtomicLong> it = buckets.values().iterator(); over > 0 && it.hasNext(); over--) {
            it.next();
            it.remove();
        }
    }
}
