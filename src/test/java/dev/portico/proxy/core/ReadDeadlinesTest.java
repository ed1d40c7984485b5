package dev.portico.proxy.core;

import dev.portico.testing.Eventually;
import dev.portico.testing.Pacing;
import dev.portico.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deadlines on a real event loop: when they fire, that cancelled ones never do, that reads push them back, and expiries
 * that change others.
 */
class ReadDeadlinesTest {

    private final Context loop = TestVertx.get().getOrCreateContext();
    private final ReadDeadlines deadlines = new ReadDeadlines(loop);
    /** Milliseconds from the deadline's start on the loop to its expiry, per waiter. */
    private final Map<String, Long> firedAfterMillis = new ConcurrentHashMap<>();
    private final List<String> order = new CopyOnWriteArrayList<>();

    /** A waiter that records how long after its start it fired, then runs {@code then} on the loop. */
    private final class Recorder extends ReadDeadlines.Waiter {
        private final String name;
        private long startedNanos;
        private Runnable then = () -> { };

        Recorder(String name) {
            this.name = name;
        }

        void start(long timeoutMillis) {
            startedNanos = System.nanoTime();
            deadlines.start(this, timeoutMillis);
        }

        @Override
        protected void expired() {
            firedAfterMillis.put(name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
            order.add(name);
            then.run();
        }
    }

    private void onLoop(Runnable action) {
        TestVertx.onContext(loop, () -> {
            action.run();
            return Future.succeededFuture();
        });
    }

    /** Waits (up to 5 s, however slow the machine) until {@code count} expiries have been told. */
    private void awaitFired(int count) {
        int told = Eventually.value(Duration.ofSeconds(5), order::size, size -> size >= count);
        assertEquals(count, told, "expiries told: " + order);
    }

    /**
     * Waits (up to 5 s) until no deadline is pending: a waiter is told only while linked, and the sweep runs on the
     * loop, so from then on nothing can fire and what {@code order} holds is final.
     */
    private void awaitNothingPending() {
        Eventually.within(Duration.ofSeconds(5), () -> assertTrue(empty(), "deadlines still pending"));
    }

    private boolean empty() {
        return TestVertx.onContext(loop, () -> Future.succeededFuture(deadlines.isEmpty()));
    }

    @Test
    void aDeadlineFiresOnceNoEarlierThanItsTimeoutAndACancelledOneNever() throws Exception {
        Recorder early = new Recorder("early");
        Recorder cancelled = new Recorder("cancelled");
        Recorder late = new Recorder("late");
        Recorder restarted = new Recorder("restarted");
        onLoop(() -> {
            early.start(100);
            cancelled.start(100);
            late.start(300);
            restarted.start(100);
            deadlines.cancel(cancelled);
            deadlines.cancel(cancelled);
            restarted.start(400);
        });
        awaitFired(3);
        // Nothing is pending any more: the cancelled one stays silent, nothing fires twice.
        awaitNothingPending();
        assertEquals(List.of("early", "late", "restarted"), order);
        assertTrue(firedAfterMillis.get("early") >= 100, "fired after " + firedAfterMillis);
        assertTrue(firedAfterMillis.get("late") >= 300, "fired after " + firedAfterMillis);
        assertTrue(firedAfterMillis.get("restarted") >= 400, "fired after " + firedAfterMillis);
        assertTrue(empty());
        // Nothing pending stops the sweep; a new deadline starts it again.
        Recorder again = new Recorder("again");
        onLoop(() -> again.start(50));
        awaitFired(4);
        assertTrue(firedAfterMillis.get("again") >= 50, "fired after " + firedAfterMillis);
    }

    @Test
    void anExpiryMayCancelOrRestartOthersThatExpiredInTheSameSweep() throws Exception {
        Recorder first = new Recorder("first");
        Recorder cancelledByFirst = new Recorder("cancelledByFirst");
        Recorder restartedByFirst = new Recorder("restartedByFirst");
        first.then = () -> {
            deadlines.cancel(cancelledByFirst);
            restartedByFirst.start(200);
        };
        onLoop(() -> {
            // Started in this order, all due in the same sweep; the sweep tells the last unlinked first.
            cancelledByFirst.start(50);
            restartedByFirst.start(50);
            first.start(50);
        });
        awaitFired(2);
        awaitNothingPending();
        assertEquals(List.of("first", "restartedByFirst"), order);
        assertTrue(firedAfterMillis.get("restartedByFirst") >= 200,
                "the restarted deadline counts from its restart: " + firedAfterMillis);
        assertTrue(empty());
    }

    @Test
    void aReadPushesARunningDeadlineBackAndLeavesAStoppedOneStopped() throws Exception {
        Recorder reading = new Recorder("reading");
        Recorder stopped = new Recorder("stopped");
        long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(500);
        onLoop(() -> {
            reading.start(500);
            stopped.start(500);
            deadlines.cancel(stopped);
        });
        // A read every 50 ms for 600 ms: the deadline always lies 500 ms past the last one.
        for (int i = 0; i < 12; i++) {
            Pacing.pause(Duration.ofMillis(50), "reads keep coming, each well within the timeout");
            onLoop(() -> {
                deadlines.restartIfRunning(reading, timeoutNanos);
                deadlines.restartIfRunning(stopped, timeoutNanos);
            });
        }
        assertEquals(List.of(), order, "nothing fires while reads keep coming");
        awaitFired(1);
        awaitNothingPending();
        assertEquals(List.of("reading"), order);
        assertTrue(firedAfterMillis.get("reading") >= 1100, "fired after " + firedAfterMillis);
        assertTrue(empty());
    }

    @Test
    void anExpiryThatThrowsDoesNotStopTheOthers() throws Exception {
        Recorder throwing = new Recorder("throwing");
        throwing.then = () -> {
            throw new IllegalStateException("a broken expiry");
        };
        Recorder next = new Recorder("next");
        Recorder later = new Recorder("later");
        onLoop(() -> {
            next.start(50);
            throwing.start(50);
            later.start(300);
        });
        awaitFired(3);
        assertEquals(List.of("throwing", "next", "later"), order);
    }
}
