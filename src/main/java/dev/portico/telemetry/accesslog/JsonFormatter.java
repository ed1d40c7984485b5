package dev.portico.telemetry.accesslog;

/**
 * One JSON object per line, fields always present and in a fixed order ({@code null} when a value does not apply):
 * <pre>{@code
 * {"time":"2024-05-01T12:34:56.789Z","requestId":"...","vhost":"shop","client":"203.0.113.7","method":"GET",
 *  "path":"/cart?id=1","protocol":"HTTP/1.1","status":200,"bytesIn":0,"bytesOut":5120,"durationMs":12.345,
 *  "upstreamDurationMs":11.002,"upstream":"http://10.0.0.5:8080","reason":null,"userAgent":"curl/8.5.0",
 *  "referrer":null,"scheme":"https","tls":"TLSv1.3/TLS_AES_128_GCM_SHA256","sni":"shop.example","attempts":1,
 *  "route":"api"}
 * }</pre>
 * Durations are milliseconds with microsecond precision. {@code attempts} counts the upstream attempts (0 when the
 * request did not go upstream, more than 1 when it was retried); {@code route} names the vhost's route that took the
 * request, null when none did. {@code tls} and {@code sni} are null on cleartext (and
 * {@code sni} when the client sent no server name). Fields are only ever added at the end.
 */
final class JsonFormatter implements LineFormatter {

    static final JsonFormatter INSTANCE = new JsonFormatter();

    private JsonFormatter() {
    }

    @Override
    public void format(AccessRecord r, LogClock clock, LineBuffer out) {
        out.ascii("{\"time\":\"");
        clock.rfc3339(out, r.timeMillis);
        out.ascii("\",\"requestId\":");
        text(out, r.requestId);
        out.ascii(",\"vhost\":");
        text(out, r.vhost);
        out.ascii(",\"client\":");
        text(out, r.client);
        out.ascii(",\"method\":");
        wire(out, r.method, AccessRecord.MAX_METHOD, false);
        out.ascii(",\"path\":");
        target(out, r.target, r.redactQuery);
        out.ascii(",\"protocol\":");
        text(out, r.protocol);
        out.ascii(",\"status\":").number(r.status);
        out.ascii(",\"bytesIn\":").number(r.bytesIn);
        out.ascii(",\"bytesOut\":").number(r.bytesOut);
        out.ascii(",\"durationMs\":").thousandths(r.durationNanos / 1000);
        out.ascii(",\"upstreamDurationMs\":");
        if (r.upstreamNanos < 0) {
            out.ascii("null");
        } else {
            out.thousandths(r.upstreamNanos / 1000);
        }
        out.ascii(",\"upstream\":");
        text(out, r.upstream);
        out.ascii(",\"reason\":");
        text(out, r.reason);
        out.ascii(",\"userAgent\":");
        wire(out, r.userAgent, AccessRecord.MAX_USER_AGENT, false);
        out.ascii(",\"referrer\":");
        wire(out, r.referrer, AccessRecord.MAX_REFERRER, r.redactQuery);
        out.ascii(",\"scheme\":");
        text(out, r.scheme);
        out.ascii(",\"tls\":");
        text(out, r.tls);
        out.ascii(",\"sni\":");
        text(out, r.sni);
        out.ascii(",\"attempts\":").number(r.attempts);
        out.ascii(",\"route\":");
        text(out, r.route);
        out.ascii("}\n");
    }

    private static void text(LineBuffer out, String value) {
        if (value == null) {
            out.ascii("null");
            return;
        }
        out.ascii('"');
        JsonEscaper.text(out, value, AccessRecord.MAX_OTHER);
        out.ascii('"');
    }

    /** The request target is text: the decoder reads it as UTF-8, so it is written as such. */
    private static void target(LineBuffer out, String value, boolean redactQuery) {
        if (value == null) {
            out.ascii("null");
            return;
        }
        out.ascii('"');
        int end = LineFormatter.visibleEnd(value, redactQuery);
        JsonEscaper.text(out, value, end, AccessRecord.MAX_TARGET);
        if (end < value.length()) {
            out.ascii(REDACTED);
        }
        out.ascii('"');
    }

    private static void wire(LineBuffer out, String value, int max, boolean redactQuery) {
        if (value == null) {
            out.ascii("null");
            return;
        }
        out.ascii('"');
        int end = LineFormatter.visibleEnd(value, redactQuery);
        JsonEscaper.wire(out, value, end, max);
        if (end < value.length()) {
            out.ascii(REDACTED);
        }
        out.ascii('"');
    }
}
