package dev.portico.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The curl command as a test client: a real HTTP/1.1 and HTTP/2 implementation that is not Portico's Vert.x. */
public final class Curl {

    private Curl() {
    }

    /**
     * Runs {@code curl -sS --max-time 20} with {@code args}; its output (the body, then what {@code -w} writes).
     * Fails unless curl exits 0 within 30 s.
     */
    public static String run(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20"));
        command.addAll(args);
        Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
        curl.getOutputStream().close();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(curl.waitFor(30, TimeUnit.SECONDS), "curl finished");
        assertEquals(0, curl.exitValue(), "curl failed: " + out);
        return out;
    }
}
