package dev.portico.telemetry.accesslog;

import dev.portico.telemetry.Drops;
import dev.portico.telemetry.accesslog.offloop.AccessLogWriter;
import dev.portico.telemetry.accesslog.offloop.Batch;
import dev.portico.telemetry.accesslog.offloop.DropWarning;
import dev.portico.telemetry.accesslog.offloop.Writability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An event loop's side of the access log: batching lines, handing batches off, dropping when the writer is full. */
class LoopBatcherTest {

    @TempDir
    Path dir;

    private final List<Batch> recycled = new CopyOnWriteArrayList<>();
    private final Drops drops = new Drops();

    private AccessLogWriter writer(Path file, long maxFileSize, int maxFiles, int queue) {
        return new AccessLogWriter(new AccessLogWriter.Settings(file, maxFileSize, maxFiles, queue), recycled::add,
                new DropWarning(drops), new Writability());
    }

    @Test
    void aFullQueueRefusesBatchesAndTheLoopCountsThemDropped() {
        // Not started: nothing drains the two-batch queue.
        AccessLogWriter writer = writer(dir.resolve("access.log"), 1000, 3, 2);
        LoopBatcher batcher = new LoopBatcher(0, 300, () -> writer, new DropWarning(drops));
        byte[] line = ("y".repeat(99) + "\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 12; i++) {
            batcher.append(line, line.length);
        }
        batcher.flush();
        // Four batches of three lines: two queued, two dropped.
        assertEquals(6, drops.count(Drops.Kind.ACCESS_LOG_LINES));
    }

    @Test
    void aLineLongerThanABatchIsCutToFitWithoutSplittingACharacter() throws Exception {
        Path file = dir.resolve("access.log");
        AccessLogWriter writer = writer(file, 1000, 1, 16);
        writer.start();
        LoopBatcher batcher = new LoopBatcher(0, 10, () -> writer, new DropWarning(drops));
        // 13 bytes; the cut at 10 would fall between the two bytes of the first é
        byte[] line = "abcdefgh\u00e9\u00e9\n".getBytes(StandardCharsets.UTF_8);
        batcher.append(line, line.length);
        batcher.append("short\n".getBytes(StandardCharsets.US_ASCII), 6);
        batcher.flush();
        writer.stop(5000);
        assertEquals("abcdefgh\nshort\n", Files.readString(file, StandardCharsets.UTF_8));
    }
}
