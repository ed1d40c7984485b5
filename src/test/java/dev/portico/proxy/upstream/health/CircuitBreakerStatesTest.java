package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.CircuitState;
import dev.portico.vhost.CircuitBreakerSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The breaker's states and their causes, on a clock the test moves. */
class CircuitBreakerStatesTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long START = 1_000 * SECOND;

    private final CircuitBreaker breaker = new CircuitBreaker(new CircuitBreakerSpec(0.5, 10, Duration.ofSeconds(10),
            Duration.ofSeconds(5), 2), 2);

    private CircuitState state() {
        return breaker.report("v").state();
    }

    /** Sends {@code requests} through a closed breaker, the first {@code failed} of them failing. */
    private void send(int requests, int failed, long now) {
        for (int i = 0; i < requests; i++) {
            long ticket = breaker.admit(now);
            assertEquals(CircuitBreaker.COUNTED, ticket);
            breaker.ended(ticket, i < failed, "503", i % 2, now);
        }
    }

    @Test
    void itOpensOnlyOnceTheRatioIsReachedWithEnoughRequests() {
        send(9, 9, START);
        assertEquals(CircuitState.CLOSED, state(), "9 requests are fewer than minRequests");
        send(1, 0, START);
        send(1, 0, START);
        assertEquals(CircuitState.CLOSED, state(), "a success never opens it");
        // 9 of 12 failed: the next failure is judged.
        send(1, 1, START);
        assertEquals(CircuitState.OPEN, state());
        CircuitReport report = breaker.report("v");
        assertEquals("83% of 12 requests failed in 10s, open for 5s", report.reason());
        assertEquals(1, report.opens());
        assertEquals(CircuitBreaker.REFUSED, breaker.admit(START + SECOND));
        assertEquals(4, breaker.retryAfterSeconds(START + SECOND + SECOND / 2));
    }

    @Test
    void halfOpenTrialsCloseItWhenAllSucceedAndReopenItWhenOneFails() {
        send(10, 10, START);
        long cooled = START + 5 * SECOND;
        long first = breaker.admit(cooled);
        assertEquals(CircuitState.HALF_OPEN, state());
        assertEquals("cool-down of 5s over: up to 2 trial requests", breaker.reason());
        long second = breaker.admit(cooled);
        assertTrue(first > CircuitBreaker.COUNTED && second > CircuitBreaker.COUNTED);
        assertEquals(CircuitBreaker.REFUSED, breaker.admit(cooled), "only two trials at once");
        assertEquals(1, breaker.retryAfterSeconds(cooled));

        breaker.ended(first, false, "200", 0, cooled);
        assertEquals(CircuitState.HALF_OPEN, state());
        breaker.ended(second, true, "upstream_connect_failure", 1, cooled);
        assertEquals(CircuitState.OPEN, state());
        assertEquals("a trial request failed (upstream_connect_failure), open for 5s", breaker.reason());
        assertEquals(2, breaker.report("v").opens());

        long again = cooled + 5 * SECOND;
        long third = breaker.admit(again);
        long fourth = breaker.admit(again);
        breaker.ended(first, true, "503", 0, again);
        assertEquals(CircuitState.HALF_OPEN, state(), "a trial of an earlier half-open spell counts for nothing");
        breaker.ended(third, false, "200", 0, again);
        breaker.ended(fourth, false, "200", 1, again);
        assertEquals(CircuitState.CLOSED, state());
        assertEquals("2 trial requests succeeded", breaker.reason());
        // The window starts again: the failures that opened it are forgotten.
        send(1, 1, again + SECOND);
        assertEquals(CircuitState.CLOSED, state());
    }

    @Test
    void anAbandonedTrialGivesItsPlaceBack() {
        send(10, 10, START);
        long cooled = START + 5 * SECOND;
        breaker.tick(cooled);
        assertEquals(CircuitState.HALF_OPEN, state(), "the sweeper's tick turns it half-open without a request");
        long first = breaker.admit(cooled);
        long second = breaker.admit(cooled);
        assertEquals(CircuitBreaker.REFUSED, breaker.admit(cooled));
        breaker.abandoned(second);
        long third = breaker.admit(cooled);
        assertTrue(third > CircuitBreaker.COUNTED);
        breaker.ended(first, false, "200", 0, cooled);
        breaker.ended(third, false, "101", 0, cooled);
        assertEquals(CircuitState.CLOSED, state());

        List<String> told = new ArrayList<>();
        breaker.drainTransitions("v", t -> told.add(t.from().code() + " -> " + t.to().code()));
        assertEquals(List.of("closed -> open", "open -> half-open", "half-open -> closed"), told);
        breaker.drainTransitions("v", t -> told.add("again"));
        assertEquals(3, told.size(), "each transition is told once");
    }
}
