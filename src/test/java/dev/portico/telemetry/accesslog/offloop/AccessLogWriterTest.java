package dev.portico.telemetry.accesslog.offloop;

import dev.portico.telemetry.Drops;
import dev.portico.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The writer thread: size-based rotation, retention, and failures that drop lines instead of stopping anything. */
class AccessLogWriterTest {

    @TempDir
    Path dir;

    private final List<Batch> recycled = new CopyOnWriteArrayList<>();
    private final Writability writability = new Writability();
    private final Drops drops = new Drops();

    private AccessLogWriter writer(Path file, long maxFileSize, int maxFiles, int queue) {
        return new AccessLogWriter(new AccessLogWriter.Settings(file, maxFileSize, maxFiles, queue), recycled::add,
                new DropWarning(drops), writability);
    }

    /** A batch of {@code lines} lines of 100 bytes each, numbered from {@code first}. */
    private static Batch batch(int first, int lines) {
        Batch batch = new Batch(0, lines * 100);
        for (int i = first; i < first + lines; i++) {
            byte[] line = String.format("line %06d %s\n", i, "x".repeat(87)).getBytes(StandardCharsets.US_ASCII);
            assertEquals(100, line.length);
            batch.append(line, line.length);
        }
        return batch;
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.US_ASCII);
    }

    private static List<Integer> numbers(Path file) throws IOException {
        return lines(file).stream().peek(line -> assertTrue(line.matches("line \\d{6} x{87}"), line))
                .map(line -> Integer.parseInt(line.substring(5, 11))).toList();
    }

    @Test
    void rotatesBySizeLikeLogrotateAndKeepsTheNewestFiles() throws Exception {
        Path file = dir.resolve("logs/access.log");
        Files.createDirectories(file.getParent());
        // Leftovers of an earlier, larger max-files: retention removes them at the first rotation.
        Files.writeString(AccessLogWriter.numbered(file, 4), "old\n");
        Files.writeString(AccessLogWriter.numbered(file, 5), "old\n");
        AccessLogWriter writer = writer(file, 1000, 3, 16);
        writer.start();
        for (int i = 0; i < 10; i++) {
            assertTrue(writer.offer(batch(i * 4, 4)));
        }
        writer.stop(5000);

        // Two 400-byte batches fit under 1000 bytes, the third starts a new file.
        assertEquals(List.of(32, 33, 34, 35, 36, 37, 38, 39), numbers(file));
        assertEquals(List.of(24, 25, 26, 27, 28, 29, 30, 31), numbers(AccessLogWriter.numbered(file, 1)));
        assertEquals(List.of(16, 17, 18, 19, 20, 21, 22, 23), numbers(AccessLogWriter.numbered(file, 2)));
        assertEquals(List.of(8, 9, 10, 11, 12, 13, 14, 15), numbers(AccessLogWriter.numbered(file, 3)));
        assertFalse(Files.exists(AccessLogWriter.numbered(file, 4)));
        assertFalse(Files.exists(AccessLogWriter.numbered(file, 5)));
        try (var files = Files.list(file.getParent())) {
            assertEquals(4, files.count());
        }
        assertEquals(10, recycled.size(), "every batch goes back for reuse");
    }

    @Test
    void appendsToAnExistingFileAndCountsItsSize() throws Exception {
        Path file = dir.resolve("access.log");
        Files.writeString(file, "x".repeat(99) + "\n");
        AccessLogWriter writer = writer(file, 500, 2, 16);
        writer.start();
        writer.offer(batch(0, 4));
        writer.offer(batch(4, 1));
        writer.stop(5000);
        assertEquals(List.of(4), numbers(file));
        assertEquals(5, lines(AccessLogWriter.numbered(file, 1)).size());
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aFileEmptiedByAnExternalCopytruncateIsNotRotatedEarly() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogWriter writer = writer(file, 500, 2, 16);
        writer.start();
        writer.offer(batch(0, 4));
        Eventually.within(Duration.ofSeconds(5), () -> assertTrue(sizeOf(file) >= 400, "the first batch is written"));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        writer.offer(batch(4, 2));
        writer.stop(5000);
        assertEquals(List.of(4, 5), numbers(file));
        assertFalse(Files.exists(AccessLogWriter.numbered(file, 1)));
    }

    @Test
    void aSymbolicLinkLikeDevStdoutIsWrittenThroughButNeverRotated() throws Exception {
        Path real = dir.resolve("real.log");
        Path link = Files.createSymbolicLink(dir.resolve("stdout"), real);
        AccessLogWriter writer = writer(link, 250, 2, 16);
        writer.start();
        for (int i = 0; i < 3; i++) {
            writer.offer(batch(i * 2, 2));
        }
        writer.stop(5000);
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), numbers(real));
        assertFalse(Files.exists(AccessLogWriter.numbered(link, 1)));
    }

    @Test
    void keepingNoRotatedFilesStartsTheFileAfresh() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogWriter writer = writer(file, 250, 0, 16);
        writer.start();
        for (int i = 0; i < 3; i++) {
            writer.offer(batch(i * 2, 2));
        }
        writer.stop(5000);
        assertEquals(List.of(4, 5), numbers(file));
        assertFalse(Files.exists(AccessLogWriter.numbered(file, 1)));
    }

    @Test
    void aFullDiskDropsAndCountsTheLinesAndTheWriterCarriesOn() {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.exists(full) && Files.isWritable(full) && !Files.isRegularFile(full),
                "needs Linux's /dev/full, where every write fails with ENOSPC");
        AccessLogWriter writer = writer(full, 1000, 3, 16);
        writer.start();
        for (int i = 0; i < 3; i++) {
            assertTrue(writer.offer(batch(i * 5, 5)));
        }
        writer.stop(5000);
        assertEquals(15, drops.count(Drops.Kind.ACCESS_LOG_LINES));
        assertEquals(3, recycled.size(), "failed batches are recycled too");
        assertTrue(Files.exists(full), "a device is never rotated away");
    }

    @Test
    void aFileThatCannotBeOpenedDropsAndCountsTheLines() throws Exception {
        Path notADirectory = dir.resolve("plain-file");
        Files.writeString(notADirectory, "");
        AccessLogWriter writer = writer(notADirectory.resolve("access.log"), 1000, 3, 16);
        writer.start();
        writer.offer(batch(0, 7));
        writer.stop(5000);
        assertEquals(7, drops.count(Drops.Kind.ACCESS_LOG_LINES));
    }

    @Test
    void aFileThatCannotBeOpenedIsReportedWithWhyAndRecoversWithoutTraffic() throws Exception {
        // Tests run as root, which permission bits do not stop: a regular file where the directory should be does.
        Path notADirectory = dir.resolve("logs");
        Files.writeString(notADirectory, "");
        Path file = notADirectory.resolve("access.log");
        AccessLogWriter writer = writer(file, 1000, 3, 16);
        writer.start();
        try {
            assertFalse(writability.everOpened());
            assertFalse(writability.writable());
            assertTrue(writability.lastError().startsWith("cannot open " + file + " ("), writability.lastError());
            assertNotNull(writability.lastErrorAt());

            Files.delete(notADirectory);

            // No batch arrives: the idle writer retries by itself.
            Eventually.within(Duration.ofSeconds(5), () -> assertTrue(writability.writable()));
            assertTrue(writability.everOpened());
            assertTrue(Files.isRegularFile(file));
            assertTrue(writability.lastError().startsWith("cannot open"), "the last failure stays visible");
        } finally {
            writer.stop(5000);
        }
    }

    @Test
    void aFailedWriteIsReportedUntilABatchIsWrittenAgain() {
        Path full = Path.of("/dev/full");
        assumeTrue(Files.exists(full) && Files.isWritable(full) && !Files.isRegularFile(full),
                "needs Linux's /dev/full, where every write fails with ENOSPC");
        AccessLogWriter writer = writer(full, 1000, 3, 16);
        writer.start();
        assertTrue(writability.writable(), "opened, nothing written yet");
        writer.offer(batch(0, 5));
        writer.stop(5000);
        assertTrue(writability.everOpened());
        assertFalse(writability.writable());
        assertTrue(writability.lastError().startsWith("cannot write /dev/full (IOException"),
                writability.lastError());

        // Opening again is not enough after a failed write (a full disk opens fine): a written batch is.
        AccessLogWriter next = writer(dir.resolve("access.log"), 1000, 3, 16);
        next.start();
        assertFalse(writability.writable());
        next.offer(batch(5, 1));
        next.stop(5000);
        assertTrue(writability.writable());
    }

    @Test
    void aStreamGetsWholeLinesInWritesThatAPipeKeepsAtomicAndIsNeverClosed() throws Exception {
        RecordingChannel stdout = new RecordingChannel();
        AccessLogWriter writer = new AccessLogWriter(AccessLogWriter.Settings.stream(stdout, 16), recycled::add,
                new DropWarning(drops), writability);
        writer.start();
        // 150 lines of 100 bytes: 15 000 bytes, more than three pipe buffers, in one batch.
        writer.offer(batch(0, 150));
        writer.offer(batch(150, 3));
        writer.stop(5000);

        String written = stdout.bytes.toString(StandardCharsets.US_ASCII);
        List<Integer> numbers = written.lines().map(line -> Integer.parseInt(line.substring(5, 11))).toList();
        assertEquals(153, numbers.size());
        for (int i = 0; i < numbers.size(); i++) {
            assertEquals(i, numbers.get(i));
        }
        assertTrue(stdout.writes.size() >= 5, "split into runs: " + stdout.writes);
        for (String run : stdout.writes) {
            assertTrue(run.length() <= AccessLogWriter.ATOMIC_PIPE_WRITE, "run of " + run.length() + " bytes");
            assertTrue(run.endsWith("\n") && run.startsWith("line "), "whole lines only");
        }
        assertTrue(stdout.isOpen(), "standard output is not the access log's to close");
        assertTrue(writability.writable());
        assertNull(writability.lastError());
        assertEquals(2, recycled.size());
    }

    @Test
    void aLineLongerThanAPipeBufferIsWrittenWholeInItsOwnRun() {
        byte[] bytes = ("a".repeat(10) + "\n" + "b".repeat(5000) + "\n" + "c\n").getBytes(StandardCharsets.US_ASCII);
        int first = AccessLogWriter.runEnd(bytes, 0, bytes.length);
        assertEquals(11, first, "the short line goes first, alone");
        int second = AccessLogWriter.runEnd(bytes, first, bytes.length);
        assertEquals(5012, second, "then the long line, whole");
        assertEquals(bytes.length, AccessLogWriter.runEnd(bytes, second, bytes.length));
    }

    /** Standard output as a test sees it: every write separately, and whether anyone closed it. */
    private static final class RecordingChannel implements WritableByteChannel {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<String> writes = new ArrayList<>();
        private volatile boolean open = true;

        @Override
        public synchronized int write(ByteBuffer src) {
            byte[] run = new byte[src.remaining()];
            src.get(run);
            bytes.write(run, 0, run.length);
            writes.add(new String(run, StandardCharsets.US_ASCII));
            return run.length;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
