package dev.portico.proxy.upstream.retry;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The budget's arithmetic over its sliding window, on a clock the test moves. */
class RetryBudgetTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long START = 1_000 * SECOND;

    private static int retriesAllowed(RetryBudget budget, int loop, long now, int tries) {
        int allowed = 0;
        for (int i = 0; i < tries; i++) {
            if (budget.tryRetry(loop, now)) {
                allowed++;
            }
        }
        return allowed;
    }

    @Test
    void retriesAddAtMostTheShareOfTheRequests() {
        RetryBudget budget = new RetryBudget(0.2, 0, 1);
        for (int i = 0; i < 100; i++) {
            budget.requested(0, START);
        }
        assertEquals(20, retriesAllowed(budget, 0, START, 50));
        budget.requested(0, START);
        assertFalse(budget.tryRetry(0, START), "101 requests allow 20.2 retries: not a 21st");
        for (int i = 0; i < 4; i++) {
            budget.requested(0, START);
        }
        assertTrue(budget.tryRetry(0, START), "105 requests allow 21");
    }

    @Test
    void theWindowForgetsWhatIsOlderThanTenSeconds() {
        RetryBudget budget = new RetryBudget(0.5, 0, 1);
        for (int i = 0; i < 10; i++) {
            budget.requested(0, START);
        }
        assertEquals(5, retriesAllowed(budget, 0, START, 10));
        assertFalse(budget.tryRetry(0, START + 9 * SECOND), "still in the window");
        assertFalse(budget.tryRetry(0, START + 11 * SECOND), "no request in the window: no share");
        budget.requested(0, START + 11 * SECOND);
        budget.requested(0, START + 11 * SECOND);
        assertEquals(1, retriesAllowed(budget, 0, START + 11 * SECOND, 5),
                "the old retries left the window with the old requests");
    }

    @Test
    void theMinimumAllowsAFewRetriesEverySecondWithoutRequests() {
        RetryBudget budget = new RetryBudget(0.2, 3, 1);
        assertEquals(3, retriesAllowed(budget, 0, START, 10));
        assertEquals(3, retriesAllowed(budget, 0, START + SECOND, 10), "a new second, three more");
    }

    @Test
    void eachEventLoopHasItsOwnBudget() {
        RetryBudget budget = new RetryBudget(0.2, 0, 2);
        for (int i = 0; i < 10; i++) {
            budget.requested(0, START);
        }
        assertEquals(2, retriesAllowed(budget, 0, START, 5));
        assertEquals(0, retriesAllowed(budget, 1, START, 5), "loop 1 saw no request");
    }
}
