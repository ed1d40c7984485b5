package dev.portico.testing;

import java.time.Duration;

/** Retries an assertion until it passes, for state that settles asynchronously (reconnects, polls). */
public final class Eventually {

    private Eventually() {
    }

    /** Runs {@code assertion} every 200 ms until it passes; after {@code timeout} rethrows its last failure. */
    public static void within(Duration timeout, Runnable assertion) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                assertion.run();
                return;
            } catch (AssertionError | RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("still failing after " + timeout.toSeconds() + " s: " + e.getMessage(), e);
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting", e);
            }
        }
    }
}
