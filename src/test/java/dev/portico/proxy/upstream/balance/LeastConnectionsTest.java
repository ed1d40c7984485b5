package dev.portico.proxy.upstream.balance;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Fewest in flight for the weight; ties by weighted round robin. */
class LeastConnectionsTest {

    private static final UpstreamAvailability THREE = TestUpstreams.all(3);

    @Test
    void picksTheLeastLoadedForItsWeightAndSharesTiesByWeight() {
        LeastConnections selector = new LeastConnections(List.of("http://a:1", "http://b:1", "http://c:1"),
                new int[]{2, 1, 1});
        LeastConnections.Load load = selector.newLoopState();
        // Idle: smooth weighted round robin, a twice as often.
        int[] idle = new int[4];
        for (int i = 0; i < 4; i++) {
            idle[i] = selector.pick(load, THREE, null, 0, 0);
            selector.finished(load, idle[i], 1, 0);
        }
        assertArrayEquals(new int[]{0, 1, 2, 0}, idle);
        // Held: a takes two at once (weight 2), b and c one each.
        int[] held = new int[4];
        for (int i = 0; i < 4; i++) {
            held[i] = selector.pick(load, THREE, null, 0, 0);
        }
        assertEquals(2, load.inFlight(0));
        assertEquals(1, load.inFlight(1));
        assertEquals(1, load.inFlight(2));
        selector.finished(load, 1, 1, 0);
        assertEquals(1, selector.pick(load, THREE, null, 0, 0), "b has room again");
        assertEquals(2, selector.pick(load, THREE, null, 0b011, 0), "a and b tried");
    }
}
