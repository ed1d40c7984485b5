package dev.portico.cache.rules;

import dev.portico.http.negotiation.AcceptEncoding;
import dev.portico.http.negotiation.AcceptLanguage;
import dev.portico.http.syntax.FieldSyntax;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The secondary cache key of RFC 9111 section 4.1: the request header fields a response's {@code Vary} names, and
 * their values in a normalised form, so that a stored variant serves exactly the requests whose key equals its
 * own.
 */
public final class VaryKey {

    private static final List<String> STAR = List.of("*");
    private static final String ACCEPT_ENCODING = "accept-encoding";
    private static final String ACCEPT_LANGUAGE = "accept-language";

    private VaryKey() {
    }

    /**
     * The field names of all {@code Vary} fields, lower case, without duplicates, in their first order; empty
     * without {@code Vary}, and just {@code "*"} when any element is {@code *} (no later request can match).
     */
    public static List<String> fields(MultiMap responseHeaders) {
        if (!responseHeaders.contains(HttpHeaderNames.VARY)) {
            return List.of();
        }
        List<String> values = responseHeaders.getAll(HttpHeaderNames.VARY);
        List<String> fields = new ArrayList<>(4);
        for (int v = 0, count = values.size(); v < count; v++) {
            String value = values.get(v);
            int n = value.length();
            int i = 0;
            while (i < n) {
                int start = FieldSyntax.skipOws(value, i);
                int end = value.indexOf(',', start);
                i = end < 0 ? n + 1 : end + 1;
                end = FieldSyntax.trimEnd(value, start, end < 0 ? n : end);
                if (end == start) {
                    continue;
                }
                if (end - start == 1 && value.charAt(start) == '*') {
                    return STAR;
                }
                String name = value.substring(start, end).toLowerCase(Locale.ROOT);
                if (!fields.contains(name)) {
                    fields.add(name);
                }
            }
        }
        return fields.isEmpty() ? List.of() : List.copyOf(fields);
    }

    /**
     * One string for the values a request has for the given fields (as returned by {@link #fields}): two requests
     * select the same variant if and only if their keys are equal. Each field contributes its name and its value
     * with all its lines joined by {@code ","}, trimmed, and whitespace around commas removed; other whitespace,
     * case and element order are kept, since only the field's own definition could say they do not matter, except
     * for {@code Accept-Encoding} and {@code Accept-Language}, whose definitions do: they are keyed in
     * {@link AcceptEncoding#canonical} and {@link AcceptLanguage} canonical form (a malformed
     * {@code Accept-Language} by its text, as any other field). An
     * absent field differs from an empty one. Field values cannot contain a line feed (RFC 9110 section 5.5), which
     * is what separates fields in the key.
     *
     * @throws IllegalArgumentException for {@code ["*"]}: a response with {@code Vary: *} is never stored
     *     ({@link Storability}) so no key can select it
     */
    public static String secondaryKey(List<String> fields, MultiMap requestHeaders) {
        int count = fields.size();
        if (count == 0) {
            return "";
        }
        if (count == 1 && "*".equals(fields.get(0))) {
            throw new IllegalArgumentException("Vary: * has no secondary key");
        }
        StringBuilder key = new StringBuilder(32 * count);
        for (int f = 0; f < count; f++) {
            String name = fields.get(f);
            key.append(name);
            if (requestHeaders.contains(name)) {
                key.append(':');
                List<String> lines = requestHeaders.getAll(name);
                if (name.equals(ACCEPT_ENCODING)) {
                    key.append(AcceptEncoding.canonical(String.join(",", lines)));
                } else if (!name.equals(ACCEPT_LANGUAGE) || !AcceptLanguage.appendCanonical(key,
                        lines.size() == 1 ? lines.get(0) : String.join(",", lines))) {
                    // Any other field, or a malformed Accept-Language: keyed by its text.
                    for (int l = 0, n = lines.size(); l < n; l++) {
                        if (l > 0) {
                            key.append(',');
                        }
                        appendNormalised(key, lines.get(l));
                    }
                }
            }
            key.append('\n');
        }
        return key.toString();
    }

    /** Whether any {@code Vary} element is {@code *}: {@link #fields} then answers its one shared list. */
    static boolean hasStar(MultiMap responseHeaders) {
        return fields(responseHeaders) == STAR;
    }

    private static void appendNormalised(StringBuilder key, String value) {
        int i = FieldSyntax.skipOws(value, 0);
        int end = FieldSyntax.trimEnd(value, i, value.length());
        boolean afterComma = false;
        while (i < end) {
            char c = value.charAt(i);
            if (FieldSyntax.isOws(c)) {
                int next = FieldSyntax.skipOws(value, i);
                // The value is trimmed, so a whitespace run always ends before a character.
                if (!afterComma && value.charAt(next) != ',') {
                    key.append(value, i, next);
                }
                i = next;
                continue;
            }
            key.append(c);
            afterComma = c == ',';
            i++;
        }
    }

}
