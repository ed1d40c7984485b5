package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.RuntimeKey;
import dev.portico.proxy.core.counters.FailureWindow;
import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.CircuitState;
import dev.portico.vhost.CircuitBreakerSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One vhost's circuit breaker over its upstream group: closed, it counts its requests' outcomes over a sliding window
 * and opens when the failed share reaches the ratio; open, it refuses requests until the cool-down is over; half-open,
 * it lets a few trial requests through, closes when all of them succeed and opens again when one fails.
 *
 * <p>The state is one per vhost and instance, shared by every event loop: a breaker that each loop kept for itself
 * would open on one loop while another still sends, need {@code minRequests} on every loop, and show operators as
 * many states as there are loops; its trials would be {@code halfOpenRequests} per loop. The counting stays per loop
 * ({@link FailureWindow}'s rows, no shared write per request); the state is one {@link AtomicLong} read once per
 * request and changed by compare-and-set only on a transition or a trial. The window is summed only after a failure
 * while closed. Kept across snapshots while the vhost's breaker settings stay the same.
 */
public final class CircuitBreaker {

    public static final RuntimeKey<CircuitBreaker> KEY = RuntimeKey.create("circuit-breaker", CircuitBreaker.class);

    /** What {@link #admit} answers for a request it refuses. */
    public static final long REFUSED = -1;
    /** What {@link #admit} answers for a request of a closed breaker; a trial's ticket is above it. */
    public static final long COUNTED = 0;

    // The state word: the state in bits 0-1, the trials admitted in 2-9 and succeeded in 10-17, then the generation,
    // which every change of state increases so a trial of an earlier half-open spell counts for nothing.
    private static final int CLOSED = 0;
    private static final int OPEN = 1;
    private static final int HALF_OPEN = 2;
    private static final long ADMITTED_ONE = 1L << 2;
    private static final long SUCCEEDED_ONE = 1L << 10;
    private static final int GENERATION_SHIFT = 18;

    private final CircuitBreakerSpec spec;
    private final FailureWindow window;
    private final String windowWords;
    private final AtomicLong word = new AtomicLong();
    /** Written before the word says open, so whoever sees it open sees its end. */
    private volatile long openUntilNanos;
    private volatile Instant since = Instant.now();
    private volatile String reason = "no failures counted yet";
    private final AtomicLong opens = new AtomicLong();
    /** Transitions for the sweeper to log and tell; a change of state is rare, so a queue costs nothing. */
    private final Queue<Change> changes = new ConcurrentLinkedQueue<>();

    private record Change(CircuitState from, CircuitState to, String reason, Instant at) {
    }

    /** @param loops the number of event loops, each counting on its own row of the window */
    public CircuitBreaker(CircuitBreakerSpec spec, int loops) {
        this.spec = spec;
        this.window = new FailureWindow(spec.window(), loops);
        this.windowWords = words(spec.window());
    }

    /**
     * Whether a request may go upstream now: {@link #COUNTED} while closed, a trial's ticket (above it) while
     * half-open and trials are left, {@link #REFUSED} otherwise. An open breaker whose cool-down is over turns
     * half-open here. One volatile read while closed.
     */
    public long admit(long nowNanos) {
        while (true) {
            long w = word.get();
            int state = state(w);
            if (state == CLOSED) {
                return COUNTED;
            }
            if (state == OPEN) {
                if (nowNanos - openUntilNanos < 0) {
                    return REFUSED;
                }
                halfOpen(w);
                continue;
            }
            if (admitted(w) >= spec.halfOpenRequests()) {
                return REFUSED;
            }
            if (word.compareAndSet(w, w + ADMITTED_ONE)) {
                return generation(w) + 1;
            }
        }
    }

    /**
     * How a request {@link #admit} let through ended: {@code failed} (a connect failure, timeout, reset or 5xx after
     * the retries, {@code what} says which) or not. Call on event loop {@code loop}.
     */
    public void ended(long ticket, boolean failed, String what, int loop, long nowNanos) {
        if (ticket == COUNTED) {
            window.record(loop, failed, nowNanos);
            if (failed && state(word.get()) == CLOSED) {
                judge(nowNanos);
            }
            return;
        }
        while (true) {
            long w = word.get();
            if (state(w) != HALF_OPEN || generation(w) != ticket - 1) {
                return;
            }
            if (failed) {
                openUntilNanos = nowNanos + spec.coolDown().toNanos();
                if (change(w, OPEN, "a trial request failed (" + what + "), open for " + words(spec.coolDown()))) {
                    return;
                }
            } else if (succeeded(w) + 1 >= spec.halfOpenRequests()) {
                window.restart(nowNanos);
                if (change(w, CLOSED, spec.halfOpenRequests() + " trial request"
                        + (spec.halfOpenRequests() == 1 ? "" : "s") + " succeeded")) {
                    return;
                }
            } else if (word.compareAndSet(w, w + SUCCEEDED_ONE)) {
                return;
            }
        }
    }

    /** A request let through ended with no word on the upstreams (the client left): a trial's place is given back. */
    public void abandoned(long ticket) {
        while (ticket > COUNTED) {
            long w = word.get();
            if (state(w) != HALF_OPEN || generation(w) != ticket - 1 || word.compareAndSet(w, w - ADMITTED_ONE)) {
                return;
            }
        }
    }

    /** Turns an open breaker whose cool-down is over half-open, so the state shows it without a request. */
    public void tick(long nowNanos) {
        long w = word.get();
        if (state(w) == OPEN && nowNanos - openUntilNanos >= 0) {
            halfOpen(w);
        }
    }

    /** Whole seconds until a refused request may succeed: the cool-down left, or 1 while trials are under way. */
    public long retryAfterSeconds(long nowNanos) {
        if (state(word.get()) != OPEN) {
            return 1;
        }
        long left = openUntilNanos - nowNanos;
        return Math.max(1, (left + 999_999_999) / 1_000_000_000);
    }

    /** Whether requests go through uncounted as trials: a background refresh is never a trial. */
    public boolean closed() {
        return state(word.get()) == CLOSED;
    }

    public CircuitReport report(String vhost) {
        return new CircuitReport(vhost, shown(state(word.get())), since, reason, opens.get());
    }

    /** The cause of the last transition in words. */
    public String reason() {
        return reason;
    }

    /** Hands each transition since the last call to {@code to}, once; the sweeper's call. */
    public void drainTransitions(String vhost, Consumer<CircuitReport.Transition> to) {
        for (Change change = changes.poll(); change != null; change = changes.poll()) {
            to.accept(new CircuitReport.Transition(vhost, change.from(), change.to(), change.reason(), change.at()));
        }
    }

    /** Opens a closed breaker when the failed share over the window reached the ratio, with enough requests. */
    private void judge(long nowNanos) {
        FailureWindow.Counts counts = window.counts(nowNanos);
        if (counts.requests() < spec.minRequests() || counts.ratio() < spec.failureRatio()) {
            return;
        }
        long w = word.get();
        if (state(w) == CLOSED) {
            openUntilNanos = nowNanos + spec.coolDown().toNanos();
            change(w, OPEN, counts.describe(windowWords) + ", open for " + words(spec.coolDown()));
        }
    }

    private void halfOpen(long w) {
        change(w, HALF_OPEN, "cool-down of " + words(spec.coolDown()) + " over: up to " + spec.halfOpenRequests()
                + " trial request" + (spec.halfOpenRequests() == 1 ? "" : "s"));
    }

    /** Moves from the state in {@code w} to {@code to} (a new generation, no trials) unless another thread did first. */
    private boolean change(long w, int to, String why) {
        long next = ((generation(w) + 1) << GENERATION_SHIFT) | to;
        if (!word.compareAndSet(w, next)) {
            return false;
        }
        if (to == OPEN) {
            opens.incrementAndGet();
        }
        Instant now = Instant.now();
        reason = why;
        since = now;
        changes.add(new Change(shown(state(w)), shown(to), why, now));
        return true;
    }

    private static int state(long w) {
        return (int) (w & 3);
    }

    private static int admitted(long w) {
        return (int) ((w >>> 2) & 0xff);
    }

    private static int succeeded(long w) {
        return (int) ((w >>> 10) & 0xff);
    }

    private static long generation(long w) {
        return w >>> GENERATION_SHIFT;
    }

    private static CircuitState shown(int state) {
        return state == CLOSED ? CircuitState.CLOSED : state == OPEN ? CircuitState.OPEN : CircuitState.HALF_OPEN;
    }

    private static String words(Duration duration) {
        return HealthChecker.words(duration.toNanos());
    }
}
