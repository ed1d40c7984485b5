package dev.portico.telemetry.accesslog;

import dev.portico.telemetry.Drops;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code portico.access-log.file=stdout}, what the container images set: lines go to standard output (here a real
 * pipe standing in for it, as a container runtime reads one), written by the background writer, with no file
 * anywhere.
 */
class AccessLogStdoutTest {

    @Test
    void linesGoToStandardOutputAndNoFileIsCreated() throws Exception {
        Pipe pipe = Pipe.open();
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> readAll(pipe.source()));
        AccessLog log = new AccessLog(AccessLogShutdownTest.settings("stdout", AccessLogSettings.Format.JSON), new Drops(),
                pipe.sink());
        log.start(2);
        for (int i = 0; i < 50; i++) {
            for (int loop = 0; loop < 2; loop++) {
                AccessRecord r = log.record(loop);
                r.requestId = "stdout-" + loop + "-" + i;
                r.method = "GET";
                r.target = "/" + i;
                r.status = 200;
                log.write(loop);
            }
        }
        log.flush(0);
        log.flush(1);
        log.stop();

        assertTrue(pipe.sink().isOpen(), "standard output stays open after the access log stopped");
        pipe.sink().close();
        List<String> ids = new ArrayList<>();
        for (String line : read.get(10, TimeUnit.SECONDS).split("\n")) {
            ids.add(new JsonObject(line).getString("requestId"));
        }
        assertEquals(100, ids.size());
        assertTrue(ids.contains("stdout-0-0") && ids.contains("stdout-1-49"));

        assertTrue(log.toStdout());
        assertTrue(log.file().isEmpty());
        assertFalse(Files.exists(Path.of("stdout")), "not a file named stdout");
        AccessLog.Status status = log.status();
        assertTrue(status.enabled());
        assertEquals("stdout", status.destination());
        assertTrue(status.opened());
        assertTrue(status.writable());
        assertNull(status.lastError());
    }

    private static String readAll(Pipe.SourceChannel source) {
        try (var in = Channels.newInputStream(source)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
