package dev.portico.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a relay's sockets can hold on this kernel, for tests that bound the bytes in flight while one side does not
 * read. A socket whose buffer is not fixed is autotuned by Linux up to the last figure of {@code tcp_rmem} (receive)
 * or {@code tcp_wmem} (send), so a constant bound is true on one kernel and false on the next.
 */
public final class SocketBuffers {

    /** The size tests fix on the sockets they own, so that only Portico's sockets grow. */
    public static final int FIXED = 256 * 1024;
    /** Vert.x and Netty write queues, and a chunk being written, on every hop together: far below this. */
    private static final long WRITE_QUEUES = 4L * 1024 * 1024;

    private SocketBuffers() {
    }

    /**
     * The most a relay through Portico can hold while one end does not read: Portico's two sockets at the kernel's
     * maxima (one receiving, one sending), the test's two sockets at {@link #FIXED} (which Linux doubles for its own
     * bookkeeping), and the write queues.
     */
    public static long relayBound() {
        return maximum("tcp_rmem") + maximum("tcp_wmem") + 4L * FIXED + WRITE_QUEUES;
    }

    private static long maximum(String sysctl) {
        Path path = Path.of("/proc/sys/net/ipv4", sysctl);
        // Files.readString trusts the size procfs reports and returns the first byte alone; a stream reads to the end.
        try (InputStream in = Files.newInputStream(path)) {
            String[] fields = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
            return Long.parseLong(fields[fields.length - 1]);
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot read " + path + ": these tests need Linux", e);
        }
    }
}
