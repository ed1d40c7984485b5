package dev.portico.proxy.core;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeUnit;

/**
 * The read deadlines of one event loop (an upstream's response head and body, a client's request body), checked by
 * one sweep every {@link #TICK_MILLIS} while any is pending. A Vert.x timer per request costs a timer object, a
 * concurrent map entry and two priority-queue operations, a few per cent of a small forwarded request; a deadline
 * here is two pointer writes to add and two to remove, and pushing it back after a read is one field write (the
 * sweep looks at every waiter, so the list needs no order). A deadline fires up to one tick late, which nginx users
 * will not notice on timeouts of seconds. Owned by one event loop: not thread-safe.
 */
public final class ReadDeadlines {

    private static final Logger LOG = Logger.getLogger(ReadDeadlines.class);
    static final long TICK_MILLIS = 50;

    /** Something waiting on one deadline: the deadline's list node, so adding one allocates nothing. */
    public abstract static class Waiter {
        private Waiter previous;
        private Waiter next;
        private Waiter nextExpired;
        /** Expired in the sweep under way and not yet told; cancelling or restarting it clears this. */
        private boolean due;
        private long deadlineNanos;

        /** The deadline passed; the waiter is no longer in the list. */
        protected abstract void expired();
    }

    private final Vertx vertx;
    private final Waiter head = new Waiter() {
        @Override
        protected void expired() {
        }
    };
    private boolean sweeping;

    /** @param loop the event loop's own context */
    public ReadDeadlines(Context loop) {
        this.vertx = loop.owner();
        head.previous = head;
        head.next = head;
    }

    /** Starts (or restarts) the waiter's deadline, {@code timeoutMillis} from now. */
    public void start(Waiter waiter, long timeoutMillis) {
        cancel(waiter);
        waiter.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        waiter.previous = head.previous;
        waiter.next = head;
        head.previous.next = waiter;
        head.previous = waiter;
        if (!sweeping) {
            scheduleSweep();
        }
    }

    /**
     * Something was read: a running deadline is moved to {@code timeoutNanos} from now, in place; a stopped one
     * (cancelled, expired, never started) stays stopped. Called per body chunk, so it allocates nothing.
     */
    public void restartIfRunning(Waiter waiter, long timeoutNanos) {
        if (waiter.next != null) {
            waiter.deadlineNanos = System.nanoTime() + timeoutNanos;
        }
    }

    /** Stops the waiter's deadline if it has one; harmless otherwise. */
    public void cancel(Waiter waiter) {
        waiter.due = false;
        if (waiter.next == null) {
            return;
        }
        waiter.previous.next = waiter.next;
        waiter.next.previous = waiter.previous;
        waiter.previous = null;
        waiter.next = null;
    }

    boolean isEmpty() {
        return head.next == head;
    }

    private void sweep() {
        long now = System.nanoTime();
        // Unlink every expired waiter before telling any: an expiry may cancel or start other deadlines.
        Waiter expired = null;
        for (Waiter waiter = head.next; waiter != head; ) {
            Waiter following = waiter.next;
            if (now - waiter.deadlineNanos >= 0) {
                cancel(waiter);
                waiter.due = true;
                waiter.nextExpired = expired;
                expired = waiter;
            }
            waiter = following;
        }
        while (expired != null) {
            Waiter waiter = expired;
            expired = waiter.nextExpired;
            waiter.nextExpired = null;
            if (waiter.due) {
                waiter.due = false;
                tell(waiter);
            }
        }
        if (isEmpty()) {
            sweeping = false;
        } else {
            scheduleSweep();
        }
    }

    private void tell(Waiter waiter) {
        try {
            waiter.expired();
        } catch (RuntimeException e) {
            // Caught so the other expiries are told and the sweep goes on.
            LOG.error("An expired read deadline failed to end its request", e);
        }
    }

    private void scheduleSweep() {
        // Only ever called on the owning loop's thread, where Vert.x runs a timer on the calling context: another
        // context of the same event loop at worst, so the sweep still runs on this loop's thread.
        vertx.setTimer(TICK_MILLIS, id -> sweep());
        sweeping = true;
    }
}
