package dev.portico.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

import java.util.List;

/**
 * Adds names to a response's {@code Vary} (RFC 9110 section 12.5.5) the way a recipient reads it: one list over every
 * {@code Vary} line, names compared without case, {@code *} already covering every name. What is there is kept in its
 * order and written back as one line with the missing names after it, so no name is listed twice.
 */
public final class VaryField {

    private VaryField() {
    }

    /** Adds each of {@code names} the response's {@code Vary} does not list yet. */
    public static void add(MultiMap headers, String... names) {
        List<String> lines = headers.getAll(HttpHeaderNames.VARY);
        StringBuilder merged = new StringBuilder();
        for (String line : lines) {
            for (String element : line.split(",")) {
                String name = element.trim();
                if (name.equals("*")) {
                    // Varies on everything already; adding names would change nothing.
                    return;
                }
                if (!name.isEmpty() && !listed(merged, name)) {
                    append(merged, name);
                }
            }
        }
        int before = merged.length();
        for (String name : names) {
            if (!listed(merged, name)) {
                append(merged, name);
            }
        }
        if (merged.length() != before || lines.size() > 1) {
            headers.set(HttpHeaderNames.VARY, merged.toString());
        }
    }

    private static boolean listed(StringBuilder merged, String name) {
        int from = 0;
        int n = merged.length();
        while (from < n) {
            int end = merged.indexOf(", ", from);
            if (end < 0) {
                end = n;
            }
            if (end - from == name.length() && merged.substring(from, end).equalsIgnoreCase(name)) {
                return true;
            }
            from = end + 2;
        }
        return false;
    }

    private static void append(StringBuilder merged, String name) {
        if (merged.length() > 0) {
            merged.append(", ");
        }
        merged.append(name);
    }
}
