package dev.portico.testing;

import java.time.Duration;

/**
 * Time passing as the stimulus of a test, never as a wait for something to happen: a slowloris client trickling a
 * head, a body sent with gaps, an origin stalling between bytes, a client idling past a timeout. Every call says why,
 * so that a reader can tell a deliberate pause from a hidden race; to wait for an outcome use {@link Eventually}.
 */
public final class Pacing {

    private Pacing() {
    }

    /**
     * Pauses the calling thread for {@code duration}; {@code why} names the behaviour that needs time to pass (it
     * documents the call at the call site).
     */
    public static void pause(Duration duration, String why) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }
}
