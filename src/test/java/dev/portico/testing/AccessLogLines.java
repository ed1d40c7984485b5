package dev.portico.testing;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Reads the JSON access log a test's requests were written to. */
public final class AccessLogLines {

    private AccessLogLines() {
    }

    /**
     * The one line of request {@code id}, once it reached {@code file} (lines are written within about 200 ms). Ids
     * are unique per run: the file outlives test runs, and a line left by an earlier one must not pass for this one's.
     */
    public static JsonObject ofRequest(Path file, String id) {
        JsonObject[] found = new JsonObject[1];
        Eventually.within(Duration.ofSeconds(10), () -> {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                        .filter(line -> line.contains("\"" + id + "\"")).toList();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            assertEquals(1, lines.size(), "lines of request " + id);
            found[0] = new JsonObject(lines.get(0));
        });
        return found[0];
    }
}
