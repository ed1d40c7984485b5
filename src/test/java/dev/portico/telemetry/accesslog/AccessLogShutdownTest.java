package dev.portico.telemetry.accesslog;

import dev.portico.telemetry.Drops;
import dev.portico.testing.Eventually;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the data plane does at shutdown, on the observer itself: lines still sitting in the loops' batches reach the
 * disk through the final flush and {@link AccessLog#stop()}, and nothing before that writes them.
 */
class AccessLogShutdownTest {

    @TempDir
    Path dir;

    static AccessLogSettings settings(String file, AccessLogSettings.Format format) {
        return new AccessLogSettings() {
            @Override
            public Optional<String> file() {
                return Optional.of(file);
            }

            @Override
            public Format format() {
                return format;
            }

            @Override
            public MemorySize maxFileSize() {
                return new MemorySize(BigInteger.valueOf(100L << 20));
            }

            @Override
            public int maxFiles() {
                return 10;
            }

            @Override
            public MemorySize batchSize() {
                return new MemorySize(BigInteger.valueOf(64 << 10));
            }

            @Override
            public int queueBatches() {
                return 64;
            }

            @Override
            public boolean unmatched() {
                return true;
            }
        };
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theFinalFlushAndStopWriteEveryBufferedLine() throws Exception {
        Path file = dir.resolve("logs/access.log");
        AccessLog log = new AccessLog(settings(file.toString(), AccessLogSettings.Format.JSON), new Drops());
        log.start(2);
        for (int i = 0; i < 100; i++) {
            for (int loop = 0; loop < 2; loop++) {
                AccessRecord r = log.record(loop);
                copy(Records.proxied(), r);
                r.requestId = "loop" + loop + "-" + i;
                log.write(loop);
            }
        }
        // 100 lines of ~400 bytes fit in one 64 KiB batch per loop: nothing has been handed to the writer yet, so
        // the file stays empty however long one watches it (a writer that got a batch writes it within milliseconds).
        assertEquals(0, Eventually.stable(Duration.ofSeconds(5), Duration.ofMillis(300), () -> sizeOf(file)));

        log.flush(0);
        log.flush(1);
        log.stop();

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(200, lines.size());
        Set<String> ids = new HashSet<>();
        for (String line : lines) {
            ids.add(new JsonObject(line).getString("requestId"));
        }
        assertEquals(200, ids.size());
        assertTrue(ids.contains("loop0-99") && ids.contains("loop1-0"));
    }

    @Test
    void offWritesNothing() throws Exception {
        AccessLog log = new AccessLog(settings("off", AccessLogSettings.Format.JSON), new Drops());
        log.start(1);
        log.flush(0);
        log.stop();
        assertTrue(log.file().isEmpty());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    private static void copy(AccessRecord from, AccessRecord to) {
        to.timeMillis = from.timeMillis;
        to.requestId = from.requestId;
        to.vhost = from.vhost;
        to.client = from.client;
        to.method = from.method;
        to.target = from.target;
        to.protocol = from.protocol;
        to.status = from.status;
        to.bytesIn = from.bytesIn;
        to.bytesOut = from.bytesOut;
        to.durationNanos = from.durationNanos;
        to.upstreamNanos = from.upstreamNanos;
        to.upstream = from.upstream;
        to.userAgent = from.userAgent;
        to.referrer = from.referrer;
    }
}
