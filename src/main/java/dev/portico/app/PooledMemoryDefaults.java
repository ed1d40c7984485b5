package dev.portico.app;

import java.util.Properties;

/**
 * A setting of Netty's pooled allocator that the data plane depends on, put in place before Netty reads it (once,
 * when Vert.x first allocates): an operator's own {@code -D} value is kept.
 *
 * <p>A body streaming in is read in pieces of up to 64 KiB (Netty's adaptive receive buffer grows to that, and the
 * upstream decoder passes pieces of that size on). Netty's per-thread cache keeps freed buffers only up to 32 KiB by
 * default, so every 64 KiB read buffer went back to the event loop's arena; when the last buffer of a 4 MiB arena
 * chunk was freed, Netty released the chunk and allocated, and zeroed, a new one for the next burst. On the forward
 * 100 KiB benchmark that zeroing ({@code Unsafe.setMemory}) was 3.5% of the proxy's CPU samples, with the chunk
 * bookkeeping around it. Caching buffers up to 64 KiB keeps them on the loop: at most Netty's 64 cached buffers per
 * size class and thread, trimmed when unused.
 */
final class PooledMemoryDefaults {

    static final String MAX_CACHED_BUFFER_CAPACITY = "io.netty.allocator.maxCachedBufferCapacity";
    /** The largest read a socket makes: Netty's adaptive receive buffer maximum, and the body piece size. */
    static final int LARGEST_READ_BYTES = 64 * 1024;

    private PooledMemoryDefaults() {
    }

    /** Sets what the operator did not set in {@code properties} (the system properties at start). */
    static void apply(Properties properties) {
        if (properties.getProperty(MAX_CACHED_BUFFER_CAPACITY) == null) {
            properties.setProperty(MAX_CACHED_BUFFER_CAPACITY, Integer.toString(LARGEST_READ_BYTES));
        }
    }
}
