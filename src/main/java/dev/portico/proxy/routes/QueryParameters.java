package dev.portico.proxy.routes;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Reads a query string as an HTML form writes it ({@code a=1&b=x+y}), for routes that match on a parameter. */
final class QueryParameters {

    private QueryParameters() {
    }

    /** The decoded value of the first parameter called {@code name} ({@code ""} for a bare {@code name}), or null. */
    static String first(String query, String name) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        int from = 0;
        while (from <= query.length()) {
            int end = query.indexOf('&', from);
            if (end < 0) {
                end = query.length();
            }
            int equals = query.indexOf('=', from);
            boolean valued = equals >= 0 && equals < end;
            String key = decode(query.substring(from, valued ? equals : end));
            if (name.equals(key)) {
                return valued ? decode(query.substring(equals + 1, end)) : "";
            }
            from = end + 1;
        }
        return null;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            // A malformed escape is kept as written: it can equal no configured value by accident.
            return text;
        }
    }
}
