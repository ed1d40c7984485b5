package dev.portico.telemetry.accesslog;


/**
 * Turns one {@link AccessRecord} into one log line, newline included, appended to a {@link LineBuffer}.
 * Implementations are stateless and shared by all event loops; per-loop state (buffer, clock) is passed in. They
 * must write whole, valid lines whatever the record holds, and allocate nothing.
 */
interface LineFormatter {

    void format(AccessRecord record, LogClock clock, LineBuffer out);

    /** Replaces a redacted query string. */
    String REDACTED = "?REDACTED";

    static LineFormatter of(AccessLogSettings.Format format) {
        return format == AccessLogSettings.Format.COMBINED ? CombinedFormatter.INSTANCE
                : JsonFormatter.INSTANCE;
    }

    /** Where the logged part of a URL ends: before its query when redacting. */
    static int visibleEnd(String url, boolean redactQuery) {
        if (!redactQuery) {
            return url.length();
        }
        int query = url.indexOf('?');
        return query < 0 ? url.length() : query;
    }
}
