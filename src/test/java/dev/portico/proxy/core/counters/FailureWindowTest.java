package dev.portico.proxy.core.counters;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sliding window's sums over loops and buckets, on a clock the test moves. */
class FailureWindowTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long START = 1_000 * SECOND;

    @Test
    void everyLoopsRowIsSummed() {
        FailureWindow window = new FailureWindow(Duration.ofSeconds(10), 3);
        for (int i = 0; i < 10; i++) {
            window.record(i % 3, i < 4, START + i * SECOND / 10);
        }
        assertEquals(new FailureWindow.Counts(10, 4), window.counts(START + SECOND));
        assertEquals(0.4, window.counts(START + SECOND).ratio());
        assertEquals("40% of 10 requests failed in 10s", window.counts(START + SECOND).describe("10s"));
    }

    @Test
    void bucketsOlderThanTheWindowDropOutAndAreReused() {
        FailureWindow window = new FailureWindow(Duration.ofSeconds(10), 1);
        window.record(0, true, START);
        window.record(0, false, START + 5 * SECOND);
        assertEquals(new FailureWindow.Counts(2, 1), window.counts(START + 9 * SECOND));
        // Ten seconds on, the first second's bucket is out of the window.
        assertEquals(new FailureWindow.Counts(1, 0), window.counts(START + 10 * SECOND));
        // Its bucket now counts a new second, from zero.
        window.record(0, false, START + 10 * SECOND);
        assertEquals(new FailureWindow.Counts(2, 0), window.counts(START + 10 * SECOND));
        assertEquals(new FailureWindow.Counts(0, 0), window.counts(START + 30 * SECOND));
    }

    @Test
    void aRestartForgetsWhatWasCountedUpToTheNextBucket() {
        FailureWindow window = new FailureWindow(Duration.ofSeconds(2), 2);
        window.record(0, true, START);
        window.record(1, true, START);
        window.restart(START);
        assertEquals(new FailureWindow.Counts(0, 0), window.counts(START));
        window.record(0, true, START + SECOND / 10);
        assertEquals(new FailureWindow.Counts(0, 0), window.counts(START + SECOND / 10), "still the same bucket");
        window.record(1, false, START + SECOND / 5);
        assertEquals(new FailureWindow.Counts(1, 0), window.counts(START + SECOND / 5));
    }
}
