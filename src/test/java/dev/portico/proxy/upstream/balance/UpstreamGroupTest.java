package dev.portico.proxy.upstream.balance;

import dev.portico.vhost.UpstreamSpec;
import io.vertx.core.net.SocketAddress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UpstreamGroupTest {

    private static List<UpstreamTarget> targets(int... weights) {
        List<UpstreamTarget> targets = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            UpstreamSpec spec = new UpstreamSpec("http://h" + i, false, "h" + i, 80, "", weights[i]);
            targets.add(new UpstreamTarget(i, spec, SocketAddress.inetSocketAddress(80, "h" + i), "k" + i,
                    new UpstreamHealth(1, 1_000_000_000L)));
        }
        return targets;
    }

    @Test
    void interleavesLikeNginxSmoothWeightedRoundRobin() {
        // nginx's documented example: weights 5, 1, 1 give a a b a c a a.
        assertArrayEquals(new int[]{0, 0, 1, 0, 2, 0, 0}, UpstreamGroup.smoothSchedule(targets(5, 1, 1)));
        assertArrayEquals(new int[]{0, 1}, UpstreamGroup.smoothSchedule(targets(1, 1)));
        assertArrayEquals(new int[]{0, 0, 1, 0}, UpstreamGroup.smoothSchedule(targets(3, 1)));
    }

    @Test
    void anUpstreamIsOutAfterMaxFailsAndProbedAfterTheTimeout() {
        UpstreamHealth health = new UpstreamHealth(2, 1_000L);
        long now = 5_000L;
        health.failed(now);
        assertTrue(health.available(now), "one failure of two allowed");
        health.failed(now);
        assertFalse(health.available(now + 999));
        assertTrue(health.available(now + 1_000), "due for a probe");
        health.failed(now + 1_000);
        assertFalse(health.available(now + 1_500), "a failed probe takes it out again");
        health.succeeded();
        assertTrue(health.available(now + 1_500));
    }
}
