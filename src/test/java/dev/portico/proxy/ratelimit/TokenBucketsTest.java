package dev.portico.proxy.ratelimit;

import dev.portico.testing.Concurrently;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The GCRA table on a clock the test moves: burst, rate, separate keys, the bound on keys, and racing threads. */
class TokenBucketsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aFullBucketLetsTheBurstThroughThenOneRequestPerInterval() {
        TokenBuckets buckets = new TokenBuckets(5, 10, 1000);
        long now = 1_000 * SECOND;
        for (int i = 0; i < 10; i++) {
            assertEquals(0, buckets.take("a", now), "request " + i + " of the burst");
        }
        long wait = buckets.take("a", now);
        assertEquals(SECOND / 5, wait, "the next token comes one interval (200 ms) later");
        assertTrue(buckets.take("a", now + wait - 1) > 0, "not a nanosecond earlier");
        assertEquals(0, buckets.take("a", now + wait));
        assertTrue(buckets.take("a", now + wait) > 0, "and only one");

        // Over ten seconds at 5/s: fifty more, whatever the pacing of the attempts.
        int admitted = 0;
        for (long t = now + wait; t <= now + wait + 10 * SECOND; t += SECOND / 100) {
            if (buckets.take("a", t) == 0) {
                admitted++;
            }
        }
        assertEquals(50, admitted);
        // Quiet for two seconds refills the whole burst, and no more.
        long later = now + wait + 10 * SECOND + 2 * SECOND;
        int burst = 0;
        while (buckets.take("a", later) == 0) {
            burst++;
        }
        assertEquals(10, burst);
    }

    @Test
    void keysHaveTheirOwnBuckets() {
        TokenBuckets buckets = new TokenBuckets(1, 2, 1000);
        long now = 5 * SECOND;
        assertEquals(0, buckets.take("a", now));
        assertEquals(0, buckets.take("a", now));
        assertTrue(buckets.take("a", now) > 0);
        assertEquals(0, buckets.take("b", now), "another key is untouched");
        assertEquals(0, buckets.take("b", now));
        assertTrue(buckets.take("b", now) > 0);
    }

    @Test
    void aFractionalRateWaitsSeveralSeconds() {
        TokenBuckets buckets = new TokenBuckets(0.5, 1, 1000);
        assertEquals(0, buckets.take("a", 0));
        assertEquals(2 * SECOND, buckets.take("a", 0));
    }

    @Test
    void idleBucketsAreSweptAndTheTableStaysBounded() {
        TokenBuckets buckets = new TokenBuckets(1, 1, 100);
        long now = 100 * SECOND;
        for (int i = 0; i < 1000; i++) {
            buckets.take("k" + i, now + i);
        }
        assertTrue(buckets.size() <= 101, "at most the bound and the key just added: " + buckets.size());
        // A limited key that stays in the table keeps its state.
        TokenBuckets small = new TokenBuckets(1, 1, 100);
        assertEquals(0, small.take("hot", now));
        for (int i = 0; i < 50; i++) {
            small.take("cold" + i, now + 2 * SECOND);
        }
        assertTrue(small.take("hot", now) > 0, "not swept: under the bound");
    }

    @Test
    void racingThreadsNeverLetMoreThanTheBurstThroughAtOneInstant() throws Exception {
        TokenBuckets buckets = new TokenBuckets(1, 25, 1000);
        long now = 7 * SECOND;
        AtomicInteger admitted = new AtomicInteger();
        List<Integer> each = Concurrently.run(8, thread -> {
            int mine = 0;
            for (int i = 0; i < 1000; i++) {
                if (buckets.take("shared", now) == 0) {
                    mine++;
                }
            }
            admitted.addAndGet(mine);
            return mine;
        });
        assertEquals(25, admitted.get(), "per thread: " + each);
    }
}
