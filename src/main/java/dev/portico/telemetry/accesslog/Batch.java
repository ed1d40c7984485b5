package dev.portico.telemetry.accesslog;

/**
 * A run of whole log lines from one event loop, written by the writer in one go. Owned by the loop while it fills
 * and by the writer from hand-off until it is recycled to its loop's free list.
 */
final class Batch {

    final int owner;
    final byte[] bytes;
    int length;
    int lines;

    Batch(int owner, int capacity) {
        this.owner = owner;
        this.bytes = new byte[capacity];
    }

    int remaining() {
        return bytes.length - length;
    }

    void append(byte[] line, int n) {
        System.arraycopy(line, 0, bytes, length, n);
        length += n;
        lines++;
    }

    void clear() {
        length = 0;
        lines = 0;
    }
}
