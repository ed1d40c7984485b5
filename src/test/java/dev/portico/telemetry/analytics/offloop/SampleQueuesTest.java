package dev.portico.telemetry.analytics.offloop;

import dev.portico.telemetry.Drops;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An event loop never waits for the analytics thread: a full queue drops the sample and counts the drop. */
class SampleQueuesTest {

    private static final UUID VHOST = UUID.randomUUID();

    private final Drops drops = new Drops();

    @Test
    void aFullQueueDropsAndCounts() {
        SampleQueues queues = new SampleQueues(2, 4, drops);
        assertEquals(4, queues.capacity());

        int accepted = 0;
        for (int i = 0; i < 10; i++) {
            if (queues.offer(0, sample(i))) {
                accepted++;
            }
        }
        assertEquals(4, accepted);
        assertEquals(6, drops.count(Drops.Kind.ANALYTICS_SAMPLES));
        assertTrue(queues.offer(1, sample(99)), "each loop has its own queue");

        List<Sample> drained = new ArrayList<>();
        assertEquals(5, queues.drain(drained::add));
        assertEquals(List.of(0L, 1L, 2L, 3L, 99L), drained.stream().map(Sample::timeMillis).toList(),
                "the first samples are kept, the latest are dropped");
        assertTrue(queues.offer(0, sample(100)), "a drained queue takes samples again");
        assertEquals(6, drops.count(Drops.Kind.ANALYTICS_SAMPLES));
    }

    @Test
    void sizesAreRoundedUpToAPowerOfTwo() {
        assertEquals(16384, new SampleQueues(1, 10_000, drops).capacity());
        SampleQueues queues = new SampleQueues(1, 5, drops);
        int accepted = 0;
        for (int i = 0; i < 8; i++) {
            accepted += queues.offer(0, sample(i)) ? 1 : 0;
        }
        assertEquals(8, accepted);
        assertFalse(queues.offer(0, sample(8)));
    }

    private static Sample sample(long time) {
        return new Sample(VHOST, time, 200, 0, 0, "/", "127.0.0.1", null, "curl/8.0", null);
    }
}
