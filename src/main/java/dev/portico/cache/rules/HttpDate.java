package dev.portico.cache.rules;

import io.netty.handler.codec.DateFormatter;
import io.vertx.core.MultiMap;

import java.util.Date;
import java.util.List;

/** HTTP-date fields (RFC 9110 section 5.6.7) as epoch milliseconds, via Netty's allocation-light parser. */
final class HttpDate {

    /** No valid date: absent, unparseable or a list. Not a real instant, unlike -1. */
    static final long INVALID = Long.MIN_VALUE;

    private HttpDate() {
    }

    /**
     * Parses an IMF-fixdate, RFC 850 or asctime date. Netty stops after the first date and ignores the rest, so a
     * list of dates would pass as its first member; a second comma can only come from a list (an IMF-fixdate has
     * one, the other forms fewer), and a date field holding a list is invalid.
     */
    static long parse(String value) {
        if (value == null) {
            return INVALID;
        }
        int comma = value.indexOf(',');
        if (comma >= 0 && value.indexOf(',', comma + 1) >= 0) {
            return INVALID;
        }
        Date date = DateFormatter.parseHttpDate(value);
        return date == null ? INVALID : date.getTime();
    }

    /**
     * The date in a field that must occur once: {@link #INVALID} when absent, invalid, or repeated with different
     * values (RFC 9111 section 4.2.1 lets a cache treat conflicting duplicates as stale).
     */
    static long field(MultiMap headers, CharSequence name) {
        String first = headers.get(name);
        if (first == null) {
            return INVALID;
        }
        long millis = parse(first);
        if (millis != INVALID) {
            List<String> all = headers.getAll(name);
            for (int i = 1, n = all.size(); i < n; i++) {
                if (parse(all.get(i)) != millis) {
                    return INVALID;
                }
            }
        }
        return millis;
    }
}
