package dev.portico.proxy.upstream;

import org.jboss.logging.Logger;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operator's view of an upstream failing a request after it was sent (a reset, a broken response): one WARN
 * line naming the vhost, the upstream and the reason, then at most one a minute for the same three, with how many
 * were left out. The request itself is already answered (502) and counted; the per-request detail is at DEBUG.
 * An origin that resets every connection would otherwise fill the log with a line per request, or (before this)
 * with Vert.x's bare {@code recvAddress(..) failed} at ERROR. Lock-free: called on event loops.
 */
final class UpstreamFailureLog {

    private static final Logger LOG = Logger.getLogger(UpstreamFailureLog.class);
    private static final long INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Vhosts and upstreams come and go with the configuration; a bound keeps the windows from piling up. */
    private static final int MAX_WINDOWS = 4096;
    private static final ConcurrentHashMap<String, Window> WINDOWS = new ConcurrentHashMap<>();

    private UpstreamFailureLog() {
    }

    /** One (vhost, upstream, reason)'s next time to log, and how many were left out since the last line. */
    private static final class Window {
        final AtomicLong nextNanos;
        final AtomicLong leftOut = new AtomicLong();

        Window(long now) {
            nextNanos = new AtomicLong(now);
        }
    }

    /**
     * @param what  what happened, e.g. "failed before responding"
     * @param reason the local reason the client was answered with
     */
    static void report(String vhost, String upstream, String what, String reason, Throwable cause) {
        String key = vhost + '\n' + upstream + '\n' + reason;
        long now = System.nanoTime();
        Window window = WINDOWS.get(key);
        if (window == null) {
            if (WINDOWS.size() >= MAX_WINDOWS) {
                WINDOWS.clear();
            }
            Window fresh = new Window(now);
            window = WINDOWS.putIfAbsent(key, fresh);
            if (window == null) {
                window = fresh;
            }
        }
        long next = window.nextNanos.get();
        if (now - next < 0 || !window.nextNanos.compareAndSet(next, now + INTERVAL_NANOS)) {
            window.leftOut.incrementAndGet();
            return;
        }
        long leftOut = window.leftOut.getAndSet(0);
        LOG.warnf("Vhost '%s': upstream %s %s (%s); answered %s%s", vhost, upstream, what, describe(cause), reason,
                leftOut == 0 ? "" : "; " + leftOut + " more like it in the last minute were not logged");
    }

    /** The root cause's message, without a stack trace: that the peer reset, timed out or closed is the news. */
    private static String describe(Throwable cause) {
        if (cause == null) {
            return "no detail";
        }
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
