package dev.portico.proxy.upstream.pool;

import java.util.concurrent.TimeUnit;

/**
 * The {@code timeout} parameter of an origin's {@code Keep-Alive} field (RFC 2068 section 19.7.1, still sent by
 * Apache and others): how long the origin keeps an idle connection open.
 */
final class KeepAliveField {

    /** Longer than any keep-alive timeout worth honouring; also keeps the arithmetic far from overflow. */
    private static final long MAX_SECONDS = 24 * 3600;

    private KeepAliveField() {
    }

    /** The timeout in nanoseconds, or 0 when the field is absent or names none (or a malformed one). */
    static long timeoutNanos(String field) {
        if (field == null) {
            return 0;
        }
        for (String parameter : field.split(",")) {
            String trimmed = parameter.trim();
            if (trimmed.regionMatches(true, 0, "timeout=", 0, 8)) {
                return seconds(trimmed.substring(8).trim());
            }
        }
        return 0;
    }

    private static long seconds(String digits) {
        if (digits.isEmpty() || digits.length() > 6) {
            return 0;
        }
        long seconds = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            seconds = seconds * 10 + (c - '0');
        }
        return TimeUnit.SECONDS.toNanos(Math.min(seconds, MAX_SECONDS));
    }
}
