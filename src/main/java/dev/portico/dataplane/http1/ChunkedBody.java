package dev.portico.dataplane.http1;

import dev.portico.dataplane.LocalReason;

/**
 * The lines of a chunked body (RFC 9112 section 7.1): each chunk's size line and the trailer section. Strict where
 * lenient parsers guess: the size is hexadecimal digits followed directly by the line's end or by {@code ;} and
 * well-formed extensions (no space padding), and a size that does not fit in 31 bits is refused rather than
 * truncated. Everything accepted here is also accepted by Netty's decoder behind it, so a body either passes both
 * or is refused here, with a 400, before Netty could fail it with no answer.
 */
final class ChunkedBody {

    /** Longest chunk-size line (extensions included); Netty's own limit is the request-line limit. */
    static final int MAX_SIZE_LINE = 4096;

    private final int maxTrailerBytes;
    private long size;
    private int trailerBytes;

    ChunkedBody(int maxTrailerBytes) {
        this.maxTrailerBytes = maxTrailerBytes;
    }

    /** A new body begins. */
    void reset() {
        trailerBytes = 0;
    }

    /** The size read by the last accepted {@link #sizeLine}; 0 for the last chunk. */
    long size() {
        return size;
    }

    /**
     * Checks {@code chunk-size [ chunk-ext ]}, the line without its CRLF.
     *
     * @return null when it is acceptable, else why not
     */
    RequestRefused sizeLine(byte[] a, int from, int to) {
        long value = 0;
        int i = from;
        while (i < to) {
            int digit = Character.digit(a[i], 16);
            if (digit < 0) {
                break;
            }
            value = value * 16 + digit;
            if (value > Integer.MAX_VALUE) {
                return malformed("A chunk size is too large");
            }
            i++;
        }
        if (i == from) {
            return malformed("A chunk size is not hexadecimal");
        }
        if (i < to && a[i] != ';') {
            return malformed("A chunk size is followed by something other than the line's end or an extension");
        }
        if (i < to && !extensionsWellFormed(a, i, to)) {
            return malformed("A chunk extension is malformed");
        }
        size = value;
        return null;
    }

    /**
     * Checks one trailer field line (without its CRLF); its content is not forwarded.
     *
     * @return null when it is acceptable, else why not
     */
    RequestRefused trailerLine(byte[] a, int from, int to) {
        trailerBytes += to - from;
        if (trailerBytes > maxTrailerBytes) {
            return malformed("The trailer section is larger than " + maxTrailerBytes + " bytes");
        }
        RequestRefused refused = RequestHead.checkFieldLine(a, from, FieldSyntax.skipToken(a, from, to), to);
        return refused == null ? null : malformed(refused.detail().replace("field", "trailer field"));
    }

    static RequestRefused malformed(String detail) {
        return new RequestRefused(LocalReason.INVALID_FRAMING, detail);
    }

    /**
     * {@code *( BWS ";" BWS ext-name [ BWS "=" BWS ( token / quoted-string ) ] )}, starting at the first {@code ;}.
     * No whitespace after a token value: Netty's decoder refuses it there, and a line it refuses would close the
     * connection without an answer.
     */
    private static boolean extensionsWellFormed(byte[] a, int from, int to) {
        int i = from;
        while (i < to) {
            if (a[i] != ';') {
                return false;
            }
            i = FieldSyntax.skipOws(a, i + 1, to);
            int nameEnd = FieldSyntax.skipToken(a, i, to);
            if (nameEnd == i) {
                return false;
            }
            i = FieldSyntax.skipOws(a, nameEnd, to);
            if (i == to || a[i] == ';') {
                continue;
            }
            if (a[i] != '=') {
                return false;
            }
            i = FieldSyntax.skipOws(a, i + 1, to);
            if (i < to && a[i] == '"') {
                i = quotedStringEnd(a, i + 1, to);
                if (i < 0) {
                    return false;
                }
                i = FieldSyntax.skipOws(a, i, to);
            } else {
                int valueEnd = FieldSyntax.skipToken(a, i, to);
                if (valueEnd == i) {
                    return false;
                }
                i = valueEnd;
            }
        }
        return true;
    }

    /** The index after the closing quote of a quoted string whose content starts at {@code from}, or -1. */
    private static int quotedStringEnd(byte[] a, int from, int to) {
        int i = from;
        while (i < to) {
            byte b = a[i];
            if (b == '"') {
                return i + 1;
            }
            if (b == '\\') {
                if (i + 1 == to || !(FieldSyntax.isFieldValue(a[i + 1]))) {
                    return -1;
                }
                i += 2;
            } else if (FieldSyntax.isQdtext(b)) {
                i++;
            } else {
                return -1;
            }
        }
        return -1;
    }
}
