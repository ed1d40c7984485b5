package dev.portico.telemetry.accesslog.offloop;

import org.jboss.logging.Logger;
import org.jctools.queues.MpscArrayQueue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The one thread that touches the access log's destination. Event loops {@link #offer} full batches through a
 * bounded queue; the writer appends each batch with one {@link FileChannel} write, rotates by size like logrotate
 * ({@code access.log -> access.log.1 -> ... -> access.log.N}, the oldest deleted) and gives the batch back. The
 * destination may instead be a stream that is already open (standard output): it is written in runs of whole lines,
 * never rotated and never closed.
 *
 * <p>When the destination cannot be opened or written (disk full, permissions), the batch's lines are dropped and
 * counted, a partial write is cut off again so no line is torn, the failure is recorded in the {@link Writability},
 * and the next batch tries again; while nothing is open, the idle writer also retries once a second, so a log that
 * could not be opened at start recovers without traffic. {@link #stop} writes everything queued, forces it to disk
 * and closes the file.
 */
public final class AccessLogWriter {

    /**
     * @param file the log file; a path that is not a regular file (a device, a pipe, a symbolic link such as
     *             {@code /dev/stdout}) is written to, never rotated
     * @param maxFileSize rotate before a batch would take the file past this
     * @param maxFiles rotated files kept; 0 keeps none
     * @param queueBatches capacity of the hand-off queue
     */
    public record Settings(Path file, WritableByteChannel stream, long maxFileSize, int maxFiles, int queueBatches) {

        /** A file destination. */
        public Settings(Path file, long maxFileSize, int maxFiles, int queueBatches) {
            this(file, null, maxFileSize, maxFiles, queueBatches);
        }

        /** An open stream such as standard output: written to, never rotated, never closed. */
        public static Settings stream(WritableByteChannel stream, int queueBatches) {
            return new Settings(null, stream, Long.MAX_VALUE, 0, queueBatches);
        }

        /** The file's path, or {@code stdout} for a stream: what logs and {@code /api/v1/status} show. */
        String describe() {
            return file != null ? file.toString() : "stdout";
        }
    }

    /**
     * Longest write to a stream: POSIX makes a write of at most {@code PIPE_BUF} (4096 bytes on Linux) to a pipe
     * atomic, so lines written in such runs are never interleaved with the application's own log lines, which
     * reach the same pipe (a container's standard output) from other threads.
     */
    static final int ATOMIC_PIPE_WRITE = 4096;
    private static final long REOPEN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final Logger LOG = Logger.getLogger(AccessLogWriter.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Settings settings;
    private final Consumer<Batch> recycler;
    private final DropWarning drops;
    private final Writability writability;
    private final MpscArrayQueue<Batch> queue;
    private final Thread thread;
    private volatile boolean stopping;
    /** Where batches go: {@link #channel} for a file, the stream otherwise; null while nothing is open. */
    private WritableByteChannel out;
    private FileChannel channel;
    private boolean rotatable;
    private long size;
    private long nextReopen;

    public AccessLogWriter(Settings settings, Consumer<Batch> recycler, DropWarning drops, Writability writability) {
        this.settings = settings;
        this.recycler = recycler;
        this.drops = drops;
        this.writability = writability;
        this.queue = new MpscArrayQueue<>(Math.max(2, settings.queueBatches()));
        this.thread = new Thread(this::run, "portico-access-log");
        thread.setDaemon(true);
    }

    /** Opens the file (reporting a failure at once, then retrying with every batch) and starts the thread. */
    public void start() {
        if (!open()) {
            LOG.errorf("Access log: %s; lines are dropped until it can be written", writability.lastError());
        }
        thread.start();
    }

    /** Called by event loops: queues a batch, false when the queue is full or the writer has stopped. */
    public boolean offer(Batch batch) {
        if (stopping || !queue.offer(batch)) {
            return false;
        }
        LockSupport.unpark(thread);
        return true;
    }

    /** Writes what is queued, syncs and closes; waits up to {@code timeoutMillis} for that. */
    public void stop(long timeoutMillis) {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("Access log: the writer did not finish within the shutdown timeout");
        }
    }

    private void run() {
        while (true) {
            Batch batch = queue.poll();
            if (batch == null) {
                if (stopping) {
                    // A loop may have offered just before seeing the flag.
                    batch = queue.poll();
                    if (batch == null) {
                        break;
                    }
                } else {
                    reopenWhileIdle();
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                    continue;
                }
            }
            try {
                write(batch);
            } catch (RuntimeException e) {
                drops.dropped(batch.lines, "unexpected failure", e);
            }
            recycler.accept(batch);
        }
        close(true);
    }

    private void write(Batch batch) {
        if (out == null && !open()) {
            drops.dropped(batch.lines, "cannot open " + settings.describe(), null);
            return;
        }
        if (full(batch.length)) {
            rotate();
            if (out == null) {
                drops.dropped(batch.lines, "cannot reopen " + settings.describe() + " after rotating", null);
                return;
            }
        }
        ByteBuffer buffer = ByteBuffer.wrap(batch.bytes, 0, batch.length);
        try {
            if (settings.stream() != null) {
                writeInAtomicRuns(batch);
            } else {
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                size += batch.length;
            }
            writability.written();
        } catch (IOException e) {
            drops.dropped(batch.lines, "cannot write " + settings.describe(), e);
            writability.writeFailed("cannot write " + settings.describe() + " (" + describe(e) + ")");
            if (rotatable && buffer.position() > 0) {
                // Whole lines or nothing: take back what part of the batch did reach the file.
                try {
                    channel.truncate(size);
                } catch (IOException ignored) {
                    // the next successful write starts after the torn part; nothing better to do
                }
            }
            close(false);
        }
    }

    /** Writes a batch to the stream in runs of whole lines of at most {@link #ATOMIC_PIPE_WRITE} bytes each. */
    private void writeInAtomicRuns(Batch batch) throws IOException {
        int start = 0;
        while (start < batch.length) {
            int end = runEnd(batch.bytes, start, batch.length);
            ByteBuffer run = ByteBuffer.wrap(batch.bytes, start, end - start);
            while (run.hasRemaining()) {
                out.write(run);
            }
            start = end;
        }
    }

    /**
     * Where the run starting at {@code start} ends: after the last newline within {@link #ATOMIC_PIPE_WRITE} bytes,
     * or after the first newline when one line alone is longer (such a line may interleave with other writers).
     */
    static int runEnd(byte[] bytes, int start, int end) {
        int limit = start + ATOMIC_PIPE_WRITE;
        if (limit >= end) {
            return end;
        }
        for (int i = limit - 1; i >= start; i--) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        for (int i = limit; i < end; i++) {
            if (bytes[i] == '\n') {
                return i + 1;
            }
        }
        return end;
    }

    /** While nothing is open (the log could not be opened, or a write failed), tries again once a second. */
    private void reopenWhileIdle() {
        if (out != null) {
            return;
        }
        long now = System.nanoTime();
        if (now - nextReopen >= 0) {
            nextReopen = now + REOPEN_INTERVAL_NANOS;
            boolean wasWritable = writability.writable();
            if (open() && !wasWritable && writability.writable()) {
                LOG.infof("Access log: %s can be written again", settings.describe());
            }
        }
    }

    /** Whether {@code incoming} more bytes would take the file past its maximum size (never true for a device). */
    private boolean full(int incoming) {
        if (!rotatable || size + incoming <= settings.maxFileSize()) {
            return false;
        }
        // An external logrotate with copytruncate may have emptied the file: ask the file before rotating it.
        try {
            size = channel.size();
        } catch (IOException e) {
            // keep the count we have
        }
        return size > 0 && size + incoming > settings.maxFileSize();
    }

    private boolean open() {
        if (settings.stream() != null) {
            if (!settings.stream().isOpen()) {
                writability.openFailed("stdout is closed");
                return false;
            }
            out = settings.stream();
            rotatable = false;
            writability.opened();
            return true;
        }
        Path file = settings.file();
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent);
            }
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            // Not through symbolic links: /dev/stdout is one, and rotating would rename it.
            rotatable = Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
            size = rotatable ? channel.size() : 0;
            out = channel;
            writability.opened();
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            LOG.debugf("Access log: cannot open %s: %s", file, e.toString());
            channel = null;
            out = null;
            writability.openFailed("cannot open " + file + " (" + describe(e) + ")");
            return false;
        }
    }

    private void rotate() {
        close(false);
        Path file = settings.file();
        int keep = settings.maxFiles();
        try {
            // Retention: .N is about to be replaced, anything past it is left over from a larger N before.
            for (int i = Math.max(keep, 1); ; i++) {
                if (!Files.deleteIfExists(numbered(file, i)) && i > keep) {
                    break;
                }
            }
            for (int i = keep - 1; i >= 1; i--) {
                Path from = numbered(file, i);
                if (Files.exists(from)) {
                    Files.move(from, numbered(file, i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            if (keep > 0) {
                Files.move(file, numbered(file, 1), StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.delete(file);
            }
        } catch (IOException e) {
            LOG.warnf("Access log: cannot rotate %s (%s); appending to it", file, e.toString());
        }
        open();
    }

    static Path numbered(Path file, int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }

    /** "AccessDeniedException: /logs": the exception's simple name and message, which is often just a path. */
    private static String describe(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": "
                + e.getMessage();
    }

    private void close(boolean sync) {
        if (channel == null) {
            // Nothing, or a stream that is not ours to close: standard output outlives the access log.
            out = null;
            return;
        }
        try {
            if (sync && rotatable) {
                channel.force(false);
            }
        } catch (IOException e) {
            LOG.warnf("Access log: cannot sync %s (%s)", settings.file(), e.toString());
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debugf(e, "Access log: cannot close %s", settings.file());
        }
        channel = null;
        out = null;
    }
}
