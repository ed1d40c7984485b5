package dev.portico.telemetry.accesslog;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JSON lines: every field, and values written by someone who wants to break the log. */
class JsonFormatterTest {

    private static JsonObject line(AccessRecord record) {
        String line = Records.format(JsonFormatter.INSTANCE, record);
        assertTrue(line.endsWith("\n"), line);
        assertEquals(line.length() - 1, line.indexOf('\n'), "exactly one line: " + line);
        return new JsonObject(line);
    }

    @Test
    void writesEveryFieldInOrder() {
        String line = Records.format(JsonFormatter.INSTANCE, Records.proxied());
        assertEquals("{\"time\":\"2024-05-01T12:34:56.789Z\",\"requestId\":\"4bf92f3577b34da6a3ce929d0e0e4736\","
                + "\"vhost\":\"shop\",\"client\":\"203.0.113.7\",\"method\":\"GET\",\"path\":\"/cart?id=1&token=secret\","
                + "\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytesIn\":12,\"bytesOut\":5120,\"durationMs\":12.345,"
                + "\"upstreamDurationMs\":11.002,\"upstream\":\"http://10.0.0.5:8080\",\"reason\":null,"
                + "\"userAgent\":\"Mozilla/5.0 (X11; Linux x86_64)\","
                + "\"referrer\":\"https://shop.example.com/list?page=2\",\"scheme\":\"https\","
                + "\"tls\":\"TLSv1.3/TLS_AES_128_GCM_SHA256\",\"sni\":\"shop.example.com\","
                + "\"attempts\":1,\"route\":\"api\"}\n", line);
    }

    @Test
    void absentValuesAreNull() {
        AccessRecord r = Records.proxied();
        r.vhost = null;
        r.upstream = null;
        r.upstreamNanos = -1;
        r.userAgent = null;
        r.referrer = null;
        r.reason = "vhost_not_found";
        r.status = 404;
        r.tls = null;
        r.sni = null;
        r.route = null;
        JsonObject json = line(r);
        for (String field : List.of("vhost", "upstream", "upstreamDurationMs", "userAgent", "referrer", "tls",
                "sni", "route")) {
            assertTrue(json.containsKey(field), field);
            assertNull(json.getValue(field), field);
        }
        assertEquals("vhost_not_found", json.getString("reason"));
        assertEquals(404, json.getInteger("status"));
    }

    @Test
    void durationsAreMillisecondsWithMicrosecondPrecision() {
        AccessRecord r = Records.proxied();
        r.durationNanos = 999;
        r.upstreamNanos = 0;
        assertEquals("0.000", fieldText(r, "durationMs"));
        assertEquals("0.000", fieldText(r, "upstreamDurationMs"));
        r.durationNanos = 61_000_001_000L;
        assertEquals("61000.001", fieldText(r, "durationMs"));
    }

    private static String fieldText(AccessRecord r, String field) {
        String line = Records.format(JsonFormatter.INSTANCE, r);
        int start = line.indexOf("\"" + field + "\":") + field.length() + 3;
        return line.substring(start, line.indexOf(',', start));
    }

    @Test
    void timestampsAreUtcWithMillisecondsAndPadded() {
        AccessRecord r = Records.proxied();
        r.timeMillis = 1_000L; // 1970-01-01T00:00:01.000Z
        assertEquals("1970-01-01T00:00:01.000Z", line(r).getString("time"));
        r.timeMillis = 253_402_300_799_999L;
        assertEquals("9999-12-31T23:59:59.999Z", line(r).getString("time"));
    }

    @Test
    void quotesBackslashesAndControlsCannotBreakTheLine() {
        AccessRecord r = Records.proxied();
        r.userAgent = "evil\"},{\"status\":200\\\r\n\t\u0000\u001b[31m\u007f";
        r.target = "/a\"b\\c";
        String raw = Records.format(JsonFormatter.INSTANCE, r);
        // '|' stands for a backslash, so the expectation is not itself full of escapes
        String expected = "\"userAgent\":\"evil|\"},{|\"status|\":200||"
                + "|u000d|u000a|u0009|u0000|u001b[31m|u007f\"";
        assertTrue(raw.contains(expected.replace('|', '\\')), raw);
        JsonObject json = line(r);
        assertEquals(r.userAgent, json.getString("userAgent"));
        assertEquals("/a\"b\\c", json.getString("path"));
        assertEquals(200, json.getInteger("status"));
    }

    @Test
    void wellFormedUtf8OnTheWireIsKeptAsUtf8() {
        AccessRecord r = Records.proxied();
        r.userAgent = Records.wire("Browsér Ω 🦊");
        // The target is text: the decoder reads it as UTF-8.
        r.target = "/straße";
        byte[] bytes = Records.formatBytes(JsonFormatter.INSTANCE, r);
        assertValidUtf8(bytes);
        JsonObject json = line(r);
        assertEquals("Browsér Ω 🦊", json.getString("userAgent"));
        assertEquals("/straße", json.getString("path"));
    }

    @Test
    void bytesThatAreNotUtf8BecomeReplacementCharacters() {
        AccessRecord r = Records.proxied();
        // Latin-1 é alone, a lone continuation byte, an overlong '/', a UTF-8 encoded surrogate, a cut sequence
        r.userAgent = "caf\u00e9 \u0080 \u00c0\u00af \u00ed\u00a0\u0080 \u00e2\u0082";
        byte[] bytes = Records.formatBytes(JsonFormatter.INSTANCE, r);
        assertValidUtf8(bytes);
        assertEquals("caf\ufffd \ufffd \ufffd\ufffd \ufffd\ufffd\ufffd \ufffd\ufffd", line(r).getString("userAgent"));
    }

    @Test
    void c1ControlsAreEscapedEvenWhenWellFormed() {
        AccessRecord r = Records.proxied();
        r.userAgent = Records.wire("a\u009bb");
        String raw = Records.format(JsonFormatter.INSTANCE, r);
        assertTrue(raw.contains("\"userAgent\":\"a\\u009bb\""), raw);
        assertEquals("a\u009bb", line(r).getString("userAgent"));
    }

    @Test
    void textValuesKeepSurrogatePairsAndReplaceUnpairedOnes() {
        AccessRecord r = Records.proxied();
        r.vhost = "fox🦊";
        r.client = "x\ud800y\udc00";
        JsonObject json = line(r);
        assertEquals("fox🦊", json.getString("vhost"));
        assertEquals("x\ufffdy\ufffd", json.getString("client"));
    }

    @Test
    void longValuesAreCutAtTheirCapAndMarked() {
        AccessRecord r = Records.proxied();
        r.userAgent = "u".repeat(5000);
        r.target = "/" + "p".repeat(5000);
        r.referrer = "https://r/" + "r".repeat(5000);
        JsonObject json = line(r);
        assertEquals("u".repeat(AccessRecord.MAX_USER_AGENT) + "...", json.getString("userAgent"));
        assertEquals(("/" + "p".repeat(5000)).substring(0, AccessRecord.MAX_TARGET) + "...", json.getString("path"));
        assertEquals(AccessRecord.MAX_REFERRER + 3, json.getString("referrer").length());
    }

    @Test
    void aCutNeverSplitsAUtf8SequenceOrASurrogatePair() {
        AccessRecord r = Records.proxied();
        // 511 ASCII bytes, then a 4-byte sequence straddling the 512-byte cap
        r.userAgent = Records.wire("u".repeat(AccessRecord.MAX_USER_AGENT - 1) + "🦊tail");
        byte[] bytes = Records.formatBytes(JsonFormatter.INSTANCE, r);
        assertValidUtf8(bytes);
        assertEquals("u".repeat(AccessRecord.MAX_USER_AGENT - 1) + "...", line(r).getString("userAgent"));

        r.vhost = "v".repeat(AccessRecord.MAX_OTHER - 1) + "🦊";
        assertEquals("v".repeat(AccessRecord.MAX_OTHER - 1) + "...", line(r).getString("vhost"));
    }

    @Test
    void redactionReplacesTheQueryOfPathAndReferrer() {
        AccessRecord r = Records.proxied();
        r.redactQuery = true;
        JsonObject json = line(r);
        assertEquals("/cart?REDACTED", json.getString("path"));
        assertEquals("https://shop.example.com/list?REDACTED", json.getString("referrer"));
        assertFalse(json.encode().contains("secret"));

        r.target = "/no-query";
        r.referrer = null;
        json = line(r);
        assertEquals("/no-query", json.getString("path"));
        assertNull(json.getString("referrer"));
    }

    @Test
    void randomBytesAlwaysMakeOneValidJsonLine() {
        Random random = new Random(42);
        for (int round = 0; round < 2000; round++) {
            AccessRecord r = Records.proxied();
            r.userAgent = randomWire(random, random.nextInt(700));
            r.target = "/" + randomWire(random, random.nextInt(3000));
            r.referrer = randomWire(random, random.nextInt(1200));
            r.method = randomWire(random, random.nextInt(40));
            byte[] bytes = Records.formatBytes(JsonFormatter.INSTANCE, r);
            assertValidUtf8(bytes);
            JsonObject json = line(r);
            assertEquals(200, json.getInteger("status"));
        }
    }

    private static String randomWire(Random random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) random.nextInt(256);
        }
        return new String(chars);
    }

    static void assertValidUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            throw new AssertionError("not valid UTF-8", e);
        }
    }
}
