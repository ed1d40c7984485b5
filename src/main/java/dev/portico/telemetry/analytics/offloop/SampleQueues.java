package dev.portico.telemetry.analytics.offloop;

import dev.portico.telemetry.Drops;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.SpscArrayQueue;

/**
 * One bounded single-producer, single-consumer queue per event loop: the loop offers, the analytics thread drains.
 * A full queue drops the sample and counts it in {@link Drops.Kind#ANALYTICS_SAMPLES}; the event loop never waits.
 */
public final class SampleQueues {

    private final SpscArrayQueue<Sample>[] queues;
    private final Drops drops;

    @SuppressWarnings("unchecked")
    public SampleQueues(int loops, int capacity, Drops drops) {
        this.drops = drops;
        queues = new SpscArrayQueue[loops];
        for (int i = 0; i < loops; i++) {
            queues[i] = new SpscArrayQueue<>(capacity);
        }
    }

    /** Called only on event loop {@code loop}. */
    public boolean offer(int loop, Sample sample) {
        if (queues[loop].offer(sample)) {
            return true;
        }
        drops.add(Drops.Kind.ANALYTICS_SAMPLES, 1);
        return false;
    }

    /** Moves every queued sample into {@code into}; called by one consumer thread at a time. */
    int drain(MessagePassingQueue.Consumer<Sample> into) {
        int drained = 0;
        for (SpscArrayQueue<Sample> queue : queues) {
            drained += queue.drain(into);
        }
        return drained;
    }

    /** Samples one loop can hold (the configured size rounded up to a power of two). */
    public int capacity() {
        return queues.length == 0 ? 0 : queues[0].capacity();
    }
}
