package dev.portico.proxy.server.http1;

import dev.portico.testing.RawHttp;
import io.vertx.core.json.JsonObject;

import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a refused request looks like on the wire: one problem reply, then the connection closes. */
final class Refusals {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] \\d{3} ");

    private Refusals() {
    }

    /**
     * Asserts that {@code raw} (all a client read until the server closed) is exactly one problem reply with
     * {@code status} and {@code reason} that announced the close.
     */
    static void assertRefused(String raw, int status, String reason) {
        assertEquals(status, RawHttp.status(raw), raw);
        assertTrue(raw.contains("\r\nconnection: close\r\n") || raw.contains("\r\nConnection: close\r\n"), raw);
        JsonObject problem = new JsonObject(raw.substring(raw.indexOf("\r\n\r\n") + 4));
        assertEquals(reason, problem.getString("reason"), raw);
        assertEquals(status, problem.getInteger("status"), raw);
        assertEquals(1, STATUS_LINE.matcher(raw).results().count(), "exactly one response: " + raw);
    }
}
