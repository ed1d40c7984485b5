package dev.portico.testing;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits on a condition instead of sleeping for a guessed time: retries an assertion or a reading until it holds, for
 * state that settles asynchronously (reconnects, polls, statistics intervals, connections being torn down). The
 * polls here are the one place in the tests where a thread sleeps to wait; a sleep that is itself the stimulus goes
 * through {@link Pacing}.
 */
public final class Eventually {

    private static final long FIRST_POLL_MILLIS = 10;
    private static final long LONGEST_POLL_MILLIS = 200;

    private Eventually() {
    }

    /**
     * Runs {@code assertion} until it passes, polling every 10 ms at first and backing off to every 200 ms; after
     * {@code timeout} rethrows its last failure.
     */
    public static void within(Duration timeout, Runnable assertion) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long poll = FIRST_POLL_MILLIS;
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError | RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("still failing after " + timeout.toMillis() + " ms: " + e.getMessage(), e);
                }
            }
            pollPause(poll);
            poll = Math.min(LONGEST_POLL_MILLIS, poll * 2);
        }
    }

    /**
     * Reads {@code reading} until a value satisfies {@code condition} and returns that value, so that the caller
     * asserts on exactly what satisfied it; after {@code timeout} fails with the last value read.
     */
    public static <T> T value(Duration timeout, Supplier<T> reading, Predicate<? super T> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long poll = FIRST_POLL_MILLIS;
        while (true) {
            T value = reading.get();
            if (condition.test(value)) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no value met the condition within " + timeout.toMillis() + " ms; last: "
                        + value);
            }
            pollPause(poll);
            poll = Math.min(LONGEST_POLL_MILLIS, poll * 2);
        }
    }

    /**
     * Waits until {@code count} has not changed for {@code quiet} and returns the settled value: what "held back"
     * means for a relay under back-pressure, or "freed" for memory released by a background thread. Fails if it is
     * still moving after {@code timeout}.
     */
    public static long stable(Duration timeout, Duration quiet, LongSupplier count) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = count.getAsLong();
        long since = System.nanoTime();
        while (true) {
            pollPause(FIRST_POLL_MILLIS * 5);
            long now = count.getAsLong();
            long at = System.nanoTime();
            if (now != last) {
                last = now;
                since = at;
            } else if (at - since >= quiet.toNanos()) {
                return now;
            }
            if (at > deadline) {
                throw new AssertionError("still changing after " + timeout.toMillis() + " ms: " + now);
            }
        }
    }

    private static void pollPause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }
}
