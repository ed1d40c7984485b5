package dev.portico.proxy.upstream.balance;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UpstreamHealthTest {

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
