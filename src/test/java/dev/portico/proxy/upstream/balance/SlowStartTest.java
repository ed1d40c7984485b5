package dev.portico.proxy.upstream.balance;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The slow-start weight: 10% when the upstream comes back, linear to 100% over the ramp, then full. */
class SlowStartTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void rampsLinearlyFromATenthToAllOfTheWeight() {
        SlowStart ramp = new SlowStart(30 * SECOND);
        long back = 1_000 * SECOND;
        assertEquals(1.0, ramp.share(UpstreamHealth.NEVER, back), "never out: full weight");
        assertEquals(0.1, ramp.share(back, back), 1e-9);
        assertEquals(0.55, ramp.share(back, back + 15 * SECOND), 1e-9);
        assertEquals(0.85, ramp.share(back, back + 25 * SECOND), 1e-9);
        assertEquals(1.0, ramp.share(back, back + 30 * SECOND));
        assertEquals(1.0, ramp.share(back, back + 3600 * SECOND));
    }

    @Test
    void roundRobinGivesARampingUpstreamItsShareOfWeight() {
        SmoothWeightedRoundRobin selector = new SmoothWeightedRoundRobin(List.of("http://a:1", "http://b:1"),
                new int[]{1, 1});
        UpstreamAvailability rampingFirst = new TestUpstreams(2, 0, 0.25);
        SmoothWeightedRoundRobin.Cursor cursor = selector.newLoopState();
        int first = 0;
        int picks = 20_000;
        for (int i = 0; i < picks; i++) {
            if (selector.pick(cursor, rampingFirst, 0, 0) == 0) {
                first++;
            }
        }
        // Weight 0.25 against 1: a fifth of the picks.
        double share = (double) first / picks;
        assertTrue(share > 0.17 && share < 0.23, "ramping upstream got " + share);
    }
}
