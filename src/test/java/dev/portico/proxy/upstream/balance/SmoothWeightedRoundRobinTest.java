package dev.portico.proxy.upstream.balance;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class SmoothWeightedRoundRobinTest {

    /** Upstreams of which the ones in {@code out} are taken out by passive health. */
    private record Upstreams(int size, Set<Integer> out) implements UpstreamAvailability {
        @Override
        public boolean available(int index, long nowNanos) {
            return !out.contains(index);
        }
    }

    private static SmoothWeightedRoundRobin selector(int... weights) {
        List<String> origins = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            origins.add("http://h" + i + ":80");
        }
        return new SmoothWeightedRoundRobin(origins, weights);
    }

    private static int[] picks(SmoothWeightedRoundRobin selector, UpstreamAvailability upstreams, int n) {
        SmoothWeightedRoundRobin.Cursor cursor = selector.newLoopState();
        int[] picked = new int[n];
        for (int i = 0; i < n; i++) {
            picked[i] = selector.pick(cursor, upstreams, 0, 0);
        }
        return picked;
    }

    @Test
    void interleavesLikeNginxSmoothWeightedRoundRobin() {
        // nginx's documented example: weights 5, 1, 1 give a a b a c a a.
        assertArrayEquals(new int[]{0, 0, 1, 0, 2, 0, 0}, SmoothWeightedRoundRobin.schedule(new int[]{5, 1, 1}));
        assertArrayEquals(new int[]{0, 1}, SmoothWeightedRoundRobin.schedule(new int[]{1, 1}));
        assertArrayEquals(new int[]{0, 0, 1, 0}, SmoothWeightedRoundRobin.schedule(new int[]{3, 1}));
        assertArrayEquals(new int[]{0, 0, 1, 0, 0, 0, 1, 0}, picks(selector(3, 1), new Upstreams(2, Set.of()), 8));
    }

    @Test
    void skipsUpstreamsTriedOrTakenOut() {
        SmoothWeightedRoundRobin three = selector(1, 1, 1);
        assertArrayEquals(new int[]{0, 2, 0, 2}, picks(three, new Upstreams(3, Set.of(1)), 4));
        SmoothWeightedRoundRobin.Cursor cursor = three.newLoopState();
        assertEquals(2, three.pick(cursor, new Upstreams(3, Set.of()), 0b011, 0));
        assertEquals(-1, three.pick(cursor, new Upstreams(3, Set.of()), 0b111, 0), "every upstream tried");
        assertEquals(-1, three.pick(cursor, new Upstreams(3, Set.of(0, 1, 2)), 0, 0), "none available");
        // A lone upstream is never taken out by passive health, but that is the group's rule (UpstreamGroup.available,
        // proven through RetryTest and OutlierDetectionTest): the selector follows what it is told.
        SmoothWeightedRoundRobin alone = selector(1);
        assertEquals(-1, alone.pick(alone.newLoopState(), new Upstreams(1, Set.of(0)), 0, 0));
    }

    @Test
    void loopStatesAreReusableOnlyForTheSameUpstreamsAndWeights() {
        assertEquals(selector(3, 1).compatibility(), selector(3, 1).compatibility());
        assertNotEquals(selector(3, 1).compatibility(), selector(1, 3).compatibility());
        assertNotEquals(selector(1, 1).compatibility(), selector(1, 1, 1).compatibility());
        assertNotEquals(selector(1, 1).compatibility(), new SmoothWeightedRoundRobin(List.of("http://x:80",
                "http://h1:80"), new int[]{1, 1}).compatibility());
    }
}
