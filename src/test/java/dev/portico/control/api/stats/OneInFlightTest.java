package dev.portico.control.api.stats;

import dev.portico.telemetry.Drops;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OneInFlightTest {

    private final Drops drops = new Drops();

    @Test
    void dropsAndCountsWhileASendIsPendingThenSendsAgain() {
        AtomicInteger failures = new AtomicInteger();
        OneInFlight sender = new OneInFlight(failures::incrementAndGet, drops);
        CompletableFuture<Void> slow = new CompletableFuture<>();

        assertTrue(sender.offer(() -> slow));
        assertFalse(sender.offer(CompletableFuture::new));
        assertFalse(sender.offer(CompletableFuture::new));
        assertEquals(2, drops.count(Drops.Kind.SSE_EVENTS));

        slow.complete(null);
        assertTrue(sender.offer(() -> CompletableFuture.completedFuture(null)));
        assertEquals(0, failures.get());
    }

    @Test
    void aFailedSendMarksTheConsumerGone() {
        AtomicInteger failures = new AtomicInteger();
        OneInFlight sender = new OneInFlight(failures::incrementAndGet, drops);
        assertTrue(sender.offer(() -> CompletableFuture.failedFuture(new java.io.IOException("reset"))));
        assertTrue(sender.failed());
        assertEquals(1, failures.get());
        assertFalse(sender.offer(() -> CompletableFuture.completedFuture(null)));
    }
}
