package dev.portico.telemetry.accesslog;

/**
 * nginx's {@code combined} format followed by the request id, the request time in seconds with millisecond
 * precision (nginx {@code $request_time}) and the vhost:
 * <pre>{@code
 * 203.0.113.7 - - [01/May/2024:12:34:56 +0000] "GET /cart?id=1 HTTP/1.1" 200 5120 "-" "curl/8.5.0" "4bf9..." 0.012 "shop"
 * }</pre>
 * Absent or empty values are {@code -}, as in nginx; times are UTC.
 */
final class CombinedFormatter implements LineFormatter {

    static final CombinedFormatter INSTANCE = new CombinedFormatter();

    private CombinedFormatter() {
    }

    @Override
    public void format(AccessRecord r, LogClock clock, LineBuffer out) {
        value(out, r.client, AccessRecord.MAX_OTHER, false);
        out.ascii(" - - [");
        clock.common(out, r.timeMillis);
        out.ascii("] \"");
        value(out, r.method, AccessRecord.MAX_METHOD, false);
        out.ascii(' ');
        target(out, r.target, r.redactQuery);
        if (r.protocol != null) {
            out.ascii(' ').ascii(r.protocol);
        }
        out.ascii("\" ").number(r.status).ascii(' ').number(r.bytesOut).ascii(" \"");
        value(out, r.referrer, AccessRecord.MAX_REFERRER, r.redactQuery);
        out.ascii("\" \"");
        value(out, r.userAgent, AccessRecord.MAX_USER_AGENT, false);
        out.ascii("\" \"");
        value(out, r.requestId, AccessRecord.MAX_OTHER, false);
        out.ascii("\" ").thousandths(r.durationNanos / 1_000_000).ascii(" \"");
        value(out, r.vhost, AccessRecord.MAX_OTHER, false);
        out.ascii("\"\n");
    }

    /** The request target is text (the decoder reads it as UTF-8): written as the escapes of its UTF-8 bytes. */
    private static void target(LineBuffer out, String value, boolean redactQuery) {
        if (value == null || value.isEmpty()) {
            out.ascii('-');
            return;
        }
        int end = LineFormatter.visibleEnd(value, redactQuery);
        CombinedEscaper.appendText(out, value, end, AccessRecord.MAX_TARGET);
        if (end < value.length()) {
            out.ascii(REDACTED);
        }
    }

    private static void value(LineBuffer out, String value, int max, boolean redactQuery) {
        if (value == null || value.isEmpty()) {
            out.ascii('-');
            return;
        }
        int end = LineFormatter.visibleEnd(value, redactQuery);
        CombinedEscaper.append(out, value, end, max);
        if (end < value.length()) {
            out.ascii(REDACTED);
        }
    }
}
