package dev.portico.dataplane.stage.forward;

import dev.portico.testing.TestVertx;
import io.vertx.core.Context;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Deadlines on a real event loop: when they fire, that cancelled ones never do, and expiries that change others. */
class ResponseDeadlinesTest {

    private final Context loop = TestVertx.get().getOrCreateContext();
    private final ResponseDeadlines deadlines = new ResponseDeadlines(TestVertx.get());
    private final Map<String, Long> firedAtMillis = new ConcurrentHashMap<>();
    private final List<String> order = new CopyOnWriteArrayList<>();
    private final long origin = System.nanoTime();

    /** A waiter that records when it fired and then runs {@code then} on the loop. */
    private final class Recorder extends ResponseDeadlines.Waiter {
        private final String name;
        private Runnable then = () -> { };

        Recorder(String name) {
            this.name = name;
        }

        @Override
        void expired() {
            firedAtMillis.put(name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - origin));
            order.add(name);
            then.run();
        }
    }

    private void onLoop(Runnable action) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.runOnContext(v -> {
            action.run();
            done.complete(null);
        });
        done.get(5, TimeUnit.SECONDS);
    }

    private boolean empty() throws Exception {
        CompletableFuture<Boolean> empty = new CompletableFuture<>();
        loop.runOnContext(v -> empty.complete(deadlines.isEmpty()));
        return empty.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aDeadlineFiresOnceNoEarlierThanItsTimeoutAndACancelledOneNever() throws Exception {
        Recorder early = new Recorder("early");
        Recorder cancelled = new Recorder("cancelled");
        Recorder late = new Recorder("late");
        Recorder restarted = new Recorder("restarted");
        onLoop(() -> {
            deadlines.start(early, 100);
            deadlines.start(cancelled, 100);
            deadlines.start(late, 300);
            deadlines.start(restarted, 100);
            deadlines.cancel(cancelled);
            deadlines.cancel(cancelled);
            deadlines.start(restarted, 400);
        });
        Thread.sleep(400 + 3 * ResponseDeadlines.TICK_MILLIS);
        assertTrue(firedAtMillis.get("early") >= 100, "early fired at " + firedAtMillis.get("early"));
        assertTrue(firedAtMillis.get("late") >= 300, "late fired at " + firedAtMillis.get("late"));
        assertTrue(firedAtMillis.get("restarted") >= 400, "restarted fired at " + firedAtMillis.get("restarted"));
        assertEquals(List.of("early", "late", "restarted"), order);
        assertTrue(empty());
        // Nothing pending stops the sweep; a new deadline starts it again.
        Recorder again = new Recorder("again");
        onLoop(() -> deadlines.start(again, 50));
        Thread.sleep(50 + 3 * ResponseDeadlines.TICK_MILLIS);
        assertEquals(List.of("early", "late", "restarted", "again"), order);
    }

    @Test
    void anExpiryMayCancelOrRestartOthersThatExpiredInTheSameSweep() throws Exception {
        Recorder first = new Recorder("first");
        Recorder cancelledByFirst = new Recorder("cancelledByFirst");
        Recorder restartedByFirst = new Recorder("restartedByFirst");
        first.then = () -> {
            deadlines.cancel(cancelledByFirst);
            deadlines.start(restartedByFirst, 200);
        };
        onLoop(() -> {
            // Started in this order, all due in the same sweep; the sweep tells the last unlinked first.
            deadlines.start(cancelledByFirst, 50);
            deadlines.start(restartedByFirst, 50);
            deadlines.start(first, 50);
        });
        Thread.sleep(50 + 200 + 4 * ResponseDeadlines.TICK_MILLIS);
        assertEquals(List.of("first", "restartedByFirst"), order);
        assertTrue(firedAtMillis.get("restartedByFirst") - firedAtMillis.get("first") >= 200,
                "the restarted deadline counts from its restart: " + firedAtMillis);
        assertTrue(empty());
    }
}
