package dev.portico.telemetry.accesslog;

import dev.portico.telemetry.accesslog.offloop.AccessLogWriter;
import dev.portico.telemetry.accesslog.offloop.Batch;
import dev.portico.telemetry.accesslog.offloop.DropWarning;
import org.jctools.queues.MpscArrayQueue;

import java.util.function.Supplier;

/**
 * One event loop's side of the access log: appends formatted lines to the loop's current {@link Batch} and hands
 * the batch to the writer when the next line does not fit or on {@link #flush}. Empty batches come back from the
 * writer through a small free list, so a busy loop does not allocate a batch per hand-off. Confined to its loop,
 * except the free list, which the writer fills.
 */
final class LoopBatcher {

    /** Batches a loop keeps for reuse; beyond that, returned batches are left to the garbage collector. */
    static final int FREE_BATCHES = 4;

    private final int owner;
    private final int capacity;
    private final Supplier<AccessLogWriter> writer;
    private final DropWarning drops;
    // Multi-producer although one writer fills it: while a writer is replaced, the old one may still recycle.
    private final MpscArrayQueue<Batch> free = new MpscArrayQueue<>(FREE_BATCHES);
    private Batch current;

    LoopBatcher(int owner, int capacity, Supplier<AccessLogWriter> writer, DropWarning drops) {
        this.owner = owner;
        this.capacity = capacity;
        this.writer = writer;
        this.drops = drops;
    }

    /** Appends one line ending in {@code \n}; a line longer than a whole batch is cut to fit, keeping its newline. */
    void append(byte[] line, int length) {
        if (length > capacity) {
            length = cut(line, capacity);
        }
        if (current == null) {
            current = take();
        } else if (current.remaining() < length) {
            handOff();
            current = take();
        }
        current.append(line, length);
    }

    /** Hands the current batch, if it holds any line, to the writer. */
    void flush() {
        if (current != null && current.lines > 0) {
            handOff();
        }
    }

    /** Called by the writer thread with a batch it has written. */
    void recycle(Batch batch) {
        batch.clear();
        free.offer(batch);
    }

    private Batch take() {
        Batch batch = free.relaxedPoll();
        return batch != null ? batch : new Batch(owner, capacity);
    }

    private void handOff() {
        Batch batch = current;
        current = null;
        AccessLogWriter target = writer.get();
        if (target == null || !target.offer(batch)) {
            drops.dropped(batch.lines, "the writer's queue is full", null);
            batch.clear();
            current = batch;
        }
    }

    /** Shortens a line to at most {@code max} bytes ending in a newline, without splitting a UTF-8 sequence. */
    static int cut(byte[] line, int max) {
        int end = max - 1;
        while (end > 0 && (line[end] & 0xc0) == 0x80) {
            end--;
        }
        line[end] = '\n';
        return end + 1;
    }
}
