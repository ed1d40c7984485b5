package dev.portico.http.syntax;

import java.nio.charset.StandardCharsets;

/**
 * Writes a request target into a {@code Location} header value. A target with raw non-ASCII bytes (which clients
 * send, and Netty passes through only as UTF-8) becomes the percent-encoding of its bytes: the same URI, in the only
 * form a header field may carry it (RFC 3986 section 2.1, RFC 9110 section 10.2.2). Everything ASCII is kept as sent.
 */
public final class NonAsciiEscaping {

    private NonAsciiEscaping() {
    }

    /** {@code target} with each non-ASCII character percent-encoded as its UTF-8 bytes; the same string when ASCII. */
    public static String escape(String target) {
        int i = 0;
        while (i < target.length() && target.charAt(i) < 0x80) {
            i++;
        }
        if (i == target.length()) {
            return target;
        }
        StringBuilder out = new StringBuilder(target.length() + 16).append(target, 0, i);
        for (byte b : target.substring(i).getBytes(StandardCharsets.UTF_8)) {
            if (b >= 0) {
                out.append((char) b);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        return out.toString();
    }
}
