package dev.portico.proxy.server.http1;

import dev.portico.proxy.core.outcome.LocalReason;

/**
 * The lines of a chunked body (RFC 9112 section 7.1): each chunk's size line and the trailer section, read like
 * {@link RequestHead}'s lines (the index after the CRLF, {@link RequestHead#NEED_MORE} or
 * {@link RequestHead#REFUSED}). Strict where lenient parsers guess: the size is hexadecimal digits followed directly
 * by the line's end or by {@code ;} and well-formed extensions (no space padding, as Node's llhttp), and a size that
 * does not fit in 31 bits is refused rather than truncated. Everything accepted here is also accepted by Netty's
 * decoder behind it, so a body either passes both or is refused here, with a 400, before Netty could fail it with no
 * answer.
 */
final class ChunkedBody {

    /** Longest chunk-size line (extensions included); Netty's own limit is the request-line limit. */
    static final int MAX_SIZE_LINE = 4096;

    private final int maxTrailerBytes;
    private RequestRefused refusal;
    private long size;
    private int trailerBytes;
    private boolean ended;

    ChunkedBody(int maxTrailerBytes) {
        this.maxTrailerBytes = maxTrailerBytes;
    }

    /** A new body begins. */
    void reset() {
        trailerBytes = 0;
        ended = false;
        refusal = null;
    }

    /** The size read by the last {@link #sizeLine}; 0 for the last chunk. */
    long size() {
        return size;
    }

    /** Whether the blank line that ends the trailer section (and the body) has been read. */
    boolean ended() {
        return ended;
    }

    RequestRefused refusal() {
        return refusal;
    }

    /** Reads {@code chunk-size [ chunk-ext ] CRLF}. */
    int sizeLine(byte[] a, int from, int to) {
        long value = 0;
        int i = from;
        while (i < to) {
            int digit = Character.digit(a[i], 16);
            if (digit < 0) {
                break;
            }
            value = value * 16 + digit;
            if (value > Integer.MAX_VALUE) {
                return refuse("A chunk size is too large");
            }
            i++;
        }
        if (i == to) {
            return RequestHead.NEED_MORE;
        }
        if (i == from) {
            return refuse("A chunk size is not hexadecimal");
        }
        if (a[i] == ';') {
            i = extensionsEnd(a, i, to);
            if (i < 0) {
                return i == RequestHead.NEED_MORE ? i : refuse("A chunk extension is malformed");
            }
        }
        if (a[i] != '\r') {
            return refuse("A chunk size is followed by something other than CRLF or an extension");
        }
        if (i + 1 == to) {
            return RequestHead.NEED_MORE;
        }
        if (a[i + 1] != '\n') {
            return refuse("A CR is not followed by LF");
        }
        if (i - from > MAX_SIZE_LINE) {
            return refuse("A chunk-size line is longer than " + MAX_SIZE_LINE + " bytes");
        }
        size = value;
        return i + 2;
    }

    /** Reads one trailer field line (its content is not forwarded), or the blank line that ends the body. */
    int trailerLine(byte[] a, int from, int to) {
        if (a[from] == '\r') {
            if (from + 1 == to) {
                return RequestHead.NEED_MORE;
            }
            if (a[from + 1] != '\n') {
                return refuse("A CR is not followed by LF");
            }
            ended = true;
            return from + 2;
        }
        int end = RequestHead.fieldEnd(a, from, FieldSyntax.skipToken(a, from, to), to);
        if (end < 0) {
            if (end == RequestHead.NEED_MORE) {
                return end;
            }
            refusal = malformed(RequestHead.fieldRefusal(end, "trailer field").detail());
            return RequestHead.REFUSED;
        }
        trailerBytes += end - from;
        if (trailerBytes > maxTrailerBytes) {
            return refuse("The trailer section is larger than " + maxTrailerBytes + " bytes");
        }
        return end + 2;
    }

    static RequestRefused malformed(String detail) {
        return new RequestRefused(LocalReason.INVALID_FRAMING, detail);
    }

    private int refuse(String detail) {
        refusal = malformed(detail);
        return RequestHead.REFUSED;
    }

    /**
     * {@code *( BWS ";" BWS ext-name [ BWS "=" BWS ( token / quoted-string ) ] )} from the first {@code ;}: the index
     * of the CR after it, {@link RequestHead#NEED_MORE}, or {@link RequestHead#REFUSED}. No whitespace after a
     * token value: Netty's decoder refuses it there, and a line it refuses would close the connection without an
     * answer.
     */
    private static int extensionsEnd(byte[] a, int from, int to) {
        int i = from;
        while (i < to) {
            if (a[i] == '\r') {
                return i;
            }
            if (a[i] != ';') {
                return RequestHead.REFUSED;
            }
            i = FieldSyntax.skipOws(a, i + 1, to);
            int nameEnd = FieldSyntax.skipToken(a, i, to);
            if (nameEnd == to) {
                return RequestHead.NEED_MORE;
            }
            if (nameEnd == i) {
                return RequestHead.REFUSED;
            }
            i = FieldSyntax.skipOws(a, nameEnd, to);
            if (i == to) {
                return RequestHead.NEED_MORE;
            }
            if (a[i] != '=') {
                continue;
            }
            i = FieldSyntax.skipOws(a, i + 1, to);
            if (i == to) {
                return RequestHead.NEED_MORE;
            }
            if (a[i] == '"') {
                i = quotedStringEnd(a, i + 1, to);
                if (i < 0) {
                    return i;
                }
                i = FieldSyntax.skipOws(a, i, to);
            } else {
                int valueEnd = FieldSyntax.skipToken(a, i, to);
                if (valueEnd == i) {
                    return RequestHead.REFUSED;
                }
                i = valueEnd;
            }
        }
        return RequestHead.NEED_MORE;
    }

    /** The index after the closing quote of a quoted string whose content starts at {@code from}. */
    private static int quotedStringEnd(byte[] a, int from, int to) {
        int i = from;
        while (i < to) {
            byte b = a[i];
            if (b == '"') {
                return i + 1;
            }
            if (b == '\\') {
                if (i + 1 == to) {
                    return RequestHead.NEED_MORE;
                }
                if (!FieldSyntax.isFieldValue(a[i + 1])) {
                    return RequestHead.REFUSED;
                }
                i += 2;
            } else if (FieldSyntax.isQdtext(b)) {
                i++;
            } else {
                return RequestHead.REFUSED;
            }
        }
        return RequestHead.NEED_MORE;
    }
}
