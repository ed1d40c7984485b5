package dev.portico.proxy.routes;

import java.nio.charset.StandardCharsets;

/**
 * Puts decoded path text (a redirect's {@code $path}, a regex group) back into a URL: every byte that may not stand
 * for itself in a path is percent-encoded, so text decoded for matching never reaches the wire as raw bytes (a
 * decoded {@code %0d%0a} cannot split a header, a decoded {@code %2F} comes back encoded).
 */
final class PathText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private PathText() {
    }

    /** {@code text} as a path: unreserved characters, sub-delims, {@code :}, {@code @} and {@code /} kept. */
    static String encode(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (kept(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            int end = Character.isHighSurrogate(c) && i + 1 < text.length() ? i + 2 : i + 1;
            for (byte b : text.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
            i = end - 1;
        }
        return out == null ? text : out.toString();
    }

    private static boolean kept(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "-._~!$&'()*+,;=:@/".indexOf(c) >= 0;
    }
}
