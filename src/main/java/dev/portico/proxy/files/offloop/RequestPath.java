package dev.portico.proxy.files.offloop;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns a request target into a path that is safe to look up under a document root, or refuses it. Pure: no file
 * system access, so every hostile form can be tested without a disk.
 *
 * <p>The raw path must be printable ASCII without a backslash (RFC 3986 allows nothing else in a request target).
 * Percent-encoding is decoded exactly once; the decoded bytes must be UTF-8 and may not contain NUL or other
 * control characters, a slash or a backslash (an encoded slash would let a segment boundary hide from the checks
 * below). Empty segments are merged, as nginx's {@code merge_slashes} does; a {@code .} or {@code ..} segment is
 * refused outright rather than resolved, so nothing can climb out of the root before the file system is asked.
 * Dotfiles (a segment starting with {@code .}) are refused unless hidden files are served, except a first segment
 * {@code .well-known} (RFC 8615).
 */
public final class RequestPath {

    private static final String WELL_KNOWN = ".well-known";

    private RequestPath() {
    }

    /**
     * The decoded path: starts with {@code /}, segments separated by single slashes, a trailing slash kept; or null
     * when the target cannot name a file under the root.
     *
     * @param pathAndQuery the origin-form request target (the query, if any, is ignored)
     * @param serveHidden whether dotfiles may be named
     */
    public static String decode(String pathAndQuery, boolean serveHidden) {
        int query = pathAndQuery.indexOf('?');
        String raw = query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
        if (raw.isEmpty() || raw.charAt(0) != '/') {
            return null;
        }
        boolean encoded = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c >= 0x7f || c == '\\') {
                return null;
            }
            encoded |= c == '%';
        }
        if (!encoded) {
            return normalise(raw, serveHidden);
        }
        byte[] bytes = new byte[raw.length()];
        int n = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            int b = c;
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    return null;
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                b = hi << 4 | lo;
                i += 2;
                if (b < 0x20 || b == 0x7f || b == '/' || b == '\\') {
                    return null;
                }
            }
            bytes[n++] = (byte) b;
        }
        String decoded = utf8(bytes, n);
        return decoded == null ? null : normalise(decoded, serveHidden);
    }

    /**
     * Checks and normalises an already decoded path (a request path, or a {@code tryFiles} entry with the request
     * path put in): merges empty segments, refuses dot segments and, unless {@code serveHidden}, dotfiles. Null
     * when refused.
     */
    public static String normalise(String decoded, boolean serveHidden) {
        if (decoded.isEmpty() || decoded.charAt(0) != '/') {
            return null;
        }
        StringBuilder out = new StringBuilder(decoded.length());
        int i = 1;
        int segment = 0;
        while (i <= decoded.length()) {
            int end = decoded.indexOf('/', i);
            if (end < 0) {
                end = decoded.length();
            }
            if (end > i) {
                String name = decoded.substring(i, end);
                if (!allowed(name, segment, serveHidden)) {
                    return null;
                }
                out.append('/').append(name);
                segment++;
            }
            i = end + 1;
        }
        if (out.length() == 0 || decoded.charAt(decoded.length() - 1) == '/') {
            out.append('/');
        }
        return out.toString();
    }

    /** Whether one segment of a decoded path (or of a path relative to the root) may be served. */
    public static boolean allowed(String name, int index, boolean serveHidden) {
        if (name.equals(".") || name.equals("..")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\\') {
                return false;
            }
        }
        return serveHidden || name.charAt(0) != '.' || index == 0 && name.equals(WELL_KNOWN);
    }

    private static String utf8(byte[] bytes, int length) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
