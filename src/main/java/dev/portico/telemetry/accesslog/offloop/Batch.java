package dev.portico.telemetry.accesslog.offloop;

/**
 * A run of whole log lines from one event loop, written by the writer in one go. Owned by the loop while it fills
 * and by the writer from hand-off until it is recycled to its loop's free list.
 */
public final class Batch {

    public final int owner;
    public final byte[] bytes;
    public int length;
    public int lines;

    public Batch(int owner, int capacity) {
        this.owner = owner;
        this.bytes = new byte[capacity];
    }

    public int remaining() {
        return bytes.length - length;
    }

    public void append(byte[] line, int n) {
        System.arraycopy(line, 0, bytes, length, n);
        length += n;
        lines++;
    }

    public void clear() {
        length = 0;
        lines = 0;
    }
}
