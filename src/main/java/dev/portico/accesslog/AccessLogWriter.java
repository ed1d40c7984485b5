package dev.portico.accesslog;

import org.jboss.logging.Logger;
import org.jctools.queues.MpscArrayQueue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The one thread that touches the access-log file. Event loops {@link #offer} full batches through a bounded
 * queue; the writer appends each batch with one {@link FileChannel} write, rotates by size like logrotate
 * ({@code access.log -> access.log.1 -> ... -> access.log.N}, the oldest deleted) and gives the batch back.
 *
 * <p>When the file cannot be opened or written (disk full, permissions), the batch's lines are dropped and counted,
 * a partial write is cut off again so no line is torn, and the next batch tries again. {@link #stop} writes
 * everything queued, forces it to disk and closes the file.
 */
final class AccessLogWriter {

    /**
     * @param file the log file; a path that is not a regular file (a device, a pipe, a symbolic link such as
     *             {@code /dev/stdout}) is written to, never rotated
     * @param maxFileSize rotate before a batch would take the file past this
     * @param maxFiles rotated files kept; 0 keeps none
     * @param queueBatches capacity of the hand-off queue
     */
    record Settings(Path file, long maxFileSize, int maxFiles, int queueBatches) {
    }

    private static final Logger LOG = Logger.getLogger(AccessLogWriter.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Settings settings;
    private final Consumer<Batch> recycler;
    private final DropWarning drops;
    private final MpscArrayQueue<Batch> queue;
    private final Thread thread;
    private volatile boolean stopping;
    private FileChannel channel;
    private boolean rotatable;
    private long size;

    AccessLogWriter(Settings settings, Consumer<Batch> recycler, DropWarning drops) {
        this.settings = settings;
        this.recycler = recycler;
        this.drops = drops;
        this.queue = new MpscArrayQueue<>(Math.max(2, settings.queueBatches()));
        this.thread = new Thread(this::run, "portico-access-log");
        thread.setDaemon(true);
    }

    /** Opens the file (reporting a failure at once, then retrying with every batch) and starts the thread. */
    void start() {
        if (!open()) {
            LOG.errorf("Access log: cannot open %s; lines are dropped until it can be written", settings.file());
        }
        thread.start();
    }

    /** Called by event loops: queues a batch, false when the queue is full or the writer has stopped. */
    boolean offer(Batch batch) {
        if (stopping || !queue.offer(batch)) {
            return false;
        }
        LockSupport.unpark(thread);
        return true;
    }

    /** Writes what is queued, syncs and closes; waits up to {@code timeoutMillis} for that. */
    void stop(long timeoutMillis) {
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
        if (channel == null && !open()) {
            drops.dropped(batch.lines, "cannot open " + settings.file(), null);
            return;
        }
        if (full(batch.length)) {
            rotate();
            if (channel == null) {
                drops.dropped(batch.lines, "cannot reopen " + settings.file() + " after rotating", null);
                return;
            }
        }
        ByteBuffer buffer = ByteBuffer.wrap(batch.bytes, 0, batch.length);
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            size += batch.length;
        } catch (IOException e) {
            drops.dropped(batch.lines, "cannot write " + settings.file(), e);
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
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            LOG.debugf("Access log: cannot open %s: %s", file, e.toString());
            channel = null;
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

    private void close(boolean sync) {
        if (channel == null) {
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
    }
}
