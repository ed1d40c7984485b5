package dev.portico.proxy.server.http1;

import dev.portico.proxy.core.outcome.LocalReason;

/**
 * Reads one request head line by line, as RFC 9112 writes it and nothing looser, and works out how the body that
 * follows is framed. It refuses what a lenient parser would repair: a tab or two spaces between the parts of the
 * request line, control bytes or malformed UTF-8 in the target, a field line folded onto the previous one
 * (obs-fold) or with an empty name, a bare CR or LF, any {@code Transfer-Encoding} but a lone {@code chunked}. A
 * message whose framing two parsers could read differently is the start of request smuggling, so it never goes
 * further.
 *
 * <p>Each method reads a line starting at {@code a[from]} from bytes that end at {@code a[to]}, finding the line's
 * end in the same pass that checks it (one table lookup per byte): it returns the index after the line's CRLF,
 * {@link #NEED_MORE} when the bytes end first, or {@link #REFUSED} (then {@link #refusal()} says why). Reused for
 * every request of a connection: {@link #reset()} between them.
 */
final class RequestHead {

    static final int NEED_MORE = -1;
    static final int REFUSED = -2;
    /** {@link #bodyLength()} for a chunked body. */
    static final long CHUNKED = -1;

    private final int maxRequestLine;
    private final int maxHeaderSize;

    private RequestRefused refusal;
    private boolean ended;
    private int headerBytes;
    private boolean http10;
    private boolean get;
    private long contentLength = -1;
    private boolean transferEncoding;
    private int chunkedCount;
    private int otherCodings;
    private boolean lastIsChunked;
    private boolean webSocketKey1;
    private boolean webSocketKey2;

    RequestHead(int maxRequestLine, int maxHeaderSize) {
        this.maxRequestLine = maxRequestLine;
        this.maxHeaderSize = maxHeaderSize;
    }

    void reset() {
        refusal = null;
        ended = false;
        headerBytes = 0;
        http10 = false;
        get = false;
        contentLength = -1;
        transferEncoding = false;
        chunkedCount = 0;
        otherCodings = 0;
        lastIsChunked = false;
        webSocketKey1 = false;
        webSocketKey2 = false;
    }

    int maxRequestLine() {
        return maxRequestLine;
    }

    /** How many more bytes of field lines (without their CRLF) this head may have before it is too large. */
    int headerBytesLeft() {
        return maxHeaderSize - headerBytes;
    }

    /** Why the last read returned {@link #REFUSED}. */
    RequestRefused refusal() {
        return refusal;
    }

    /** Whether the blank line that ends the head has been read. */
    boolean ended() {
        return ended;
    }

    /**
     * Reads {@code method SP request-target SP HTTP-version CRLF} (RFC 9112 section 3), or an empty line before it
     * (which section 2.2 says to ignore).
     */
    int requestLine(byte[] a, int from, int to) {
        if (a[from] == '\r') {
            return lineEnd(a, from, to);
        }
        int i = FieldSyntax.skipToken(a, from, to);
        if (i == to) {
            return NEED_MORE;
        }
        if (i == from || a[i] != ' ') {
            return refuse(bad("The request line must be a method, one space, the target, one space and the version"));
        }
        get = i - from == 3 && a[from] == 'G' && a[from + 1] == 'E' && a[from + 2] == 'T';
        int target = ++i;
        i = FieldSyntax.skipTarget(a, i, to);
        if (i == to) {
            return NEED_MORE;
        }
        if (i == target) {
            return refuse(bad("The request line must be a method, one space, the target, one space and the version"));
        }
        if (a[i] != ' ') {
            return refuse(bad(String.format("The request target contains the control byte 0x%02X", a[i] & 0xFF)));
        }
        if (FieldSyntax.hasNonAscii(a, target, i) && !FieldSyntax.isUtf8(a, target, i)) {
            // Portico carries the target as text and writes it upstream as UTF-8, so other bytes could not be
            // forwarded as they arrived; percent-encoding them would change the target.
            return refuse(bad("The request target has bytes above 0x7F that are not UTF-8 (percent-encode them)"));
        }
        int version = i + 1;
        if (version + 10 > to) {
            return NEED_MORE;
        }
        if (a[version] != 'H' || a[version + 1] != 'T' || a[version + 2] != 'T' || a[version + 3] != 'P'
                || a[version + 4] != '/' || !isDigit(a[version + 5]) || a[version + 6] != '.'
                || !isDigit(a[version + 7]) || a[version + 8] != '\r') {
            return refuse(bad("The request line does not end with one space and a version such as HTTP/1.1"));
        }
        if (a[version + 9] != '\n') {
            return refuse(bad("A CR is not followed by LF"));
        }
        if (version + 8 - from > maxRequestLine) {
            return refuse(new RequestRefused(LocalReason.URI_TOO_LONG, "The request line is longer than "
                    + maxRequestLine + " bytes"));
        }
        if (a[version + 5] != '1') {
            return refuse(new RequestRefused(LocalReason.HTTP_VERSION_NOT_SUPPORTED, "Only HTTP/1.x is served on an "
                    + "HTTP/1 connection"));
        }
        // RFC 9110 section 2.5: a higher minor version is handled as the highest one implemented, HTTP/1.1.
        http10 = a[version + 7] == '0';
        return version + 10;
    }

    /**
     * Reads one field line, {@code field-name ":" OWS field-value OWS CRLF} (RFC 9112 section 5), taking note of
     * the fields that frame the body; or the blank line that ends the head, after which {@link #ended()} is true.
     */
    int fieldLine(byte[] a, int from, int to) {
        if (a[from] == '\r') {
            int end = lineEnd(a, from, to);
            ended = end >= 0;
            return end;
        }
        int colon = FieldSyntax.skipToken(a, from, to);
        int end = fieldEnd(a, from, colon, to);
        if (end < 0) {
            return end == NEED_MORE ? NEED_MORE : refuse(fieldRefusal(end, "field"));
        }
        headerBytes += end - from;
        if (headerBytes > maxHeaderSize) {
            return refuse(new RequestRefused(LocalReason.HEADERS_TOO_LARGE, "The request's header fields are larger "
                    + "than " + maxHeaderSize + " bytes"));
        }
        int valueStart = FieldSyntax.skipOws(a, colon + 1, end);
        int valueEnd = FieldSyntax.trimOws(a, valueStart, end);
        RequestRefused framing = null;
        switch (colon - from) {
            case 10:
                if (FieldSyntax.equalsIgnoreCase(a, from, colon, "connection")) {
                    framing = connection(a, valueStart, valueEnd);
                }
                break;
            case 14:
                if (FieldSyntax.equalsIgnoreCase(a, from, colon, "content-length")) {
                    framing = contentLength(a, valueStart, valueEnd);
                }
                break;
            case 17:
                if (FieldSyntax.equalsIgnoreCase(a, from, colon, "transfer-encoding")) {
                    framing = transferEncoding(a, valueStart, valueEnd);
                }
                break;
            case 18:
                webSocketKey1 |= FieldSyntax.equalsIgnoreCase(a, from, colon, "sec-websocket-key1");
                webSocketKey2 |= FieldSyntax.equalsIgnoreCase(a, from, colon, "sec-websocket-key2");
                break;
            default:
                break;
        }
        return framing == null ? end + 2 : refuse(framing);
    }

    static final int OBS_FOLD = -3;
    static final int NOT_A_FIELD = -4;
    static final int EMPTY_NAME = -5;
    static final int CONTROL_IN_VALUE = -6;
    static final int BARE_CR = -7;

    /**
     * The index of the CR that ends a well-formed field line (also a trailer field) whose name's token ends at
     * {@code colon}, {@link #NEED_MORE}, or a negative code for what is wrong with it.
     */
    static int fieldEnd(byte[] a, int from, int colon, int to) {
        if (a[from] == ' ' || a[from] == '\t') {
            return OBS_FOLD;
        }
        if (colon == to) {
            return NEED_MORE;
        }
        if (a[colon] != ':') {
            return NOT_A_FIELD;
        }
        if (colon == from) {
            return EMPTY_NAME;
        }
        int i = FieldSyntax.skipFieldValue(a, colon + 1, to);
        if (i == to) {
            return NEED_MORE;
        }
        if (a[i] != '\r') {
            return CONTROL_IN_VALUE;
        }
        if (i + 1 == to) {
            return NEED_MORE;
        }
        return a[i + 1] == '\n' ? i : BARE_CR;
    }

    /** What a negative {@link #fieldEnd} code means, for a field or a trailer field. */
    static RequestRefused fieldRefusal(int code, String kind) {
        switch (code) {
            case OBS_FOLD:
                return bad("A " + kind + " line starts with whitespace (obs-fold, RFC 9112 section 5.2, is not "
                        + "accepted)");
            case EMPTY_NAME:
                return bad("A " + kind + " line has an empty name");
            case CONTROL_IN_VALUE:
                return bad("A " + kind + " value contains a control byte, or a line ends with a bare LF");
            case BARE_CR:
                return bad("A CR is not followed by LF");
            default:
                return bad("A " + kind + " line is not a token, a colon and a value");
        }
    }

    /**
     * After the blank line: whether the head's framing is acceptable (null when it is); then {@link #bodyLength()}
     * says how the body is framed.
     */
    RequestRefused framingVerdict() {
        if (transferEncoding) {
            return transferCodingVerdict();
        }
        if (contentLength < 0 && get && webSocketKey1 && webSocketKey2) {
            // Netty reads 8 body bytes for the draft-76 WebSocket handshake (Sec-WebSocket-Key1/2 on a GET) where
            // every origin reads none: the two would disagree about where the next request starts.
            return bad("The draft-76 WebSocket handshake is not supported");
        }
        return null;
    }

    /** The length of the body after an accepted head: 0 for none, or {@link #CHUNKED}. */
    long bodyLength() {
        return transferEncoding ? CHUNKED : Math.max(contentLength, 0);
    }

    private RequestRefused transferCodingVerdict() {
        if (http10) {
            return framing("Transfer-Encoding is not defined for HTTP/1.0 (RFC 9112 section 6.1)");
        }
        if (contentLength >= 0) {
            return framing("The request has both Content-Length and Transfer-Encoding");
        }
        if (!lastIsChunked) {
            return framing("chunked is not the final transfer coding, so the body length cannot be determined "
                    + "(RFC 9112 section 6.3)");
        }
        if (chunkedCount > 1) {
            return framing("chunked is applied more than once (RFC 9112 section 7)");
        }
        if (otherCodings > 0) {
            return new RequestRefused(LocalReason.UNSUPPORTED_TRANSFER_CODING, "Portico decodes no transfer coding "
                    + "but chunked");
        }
        return null;
    }

    private RequestRefused contentLength(byte[] a, int from, int to) {
        if (contentLength >= 0) {
            return framing("The request has more than one Content-Length");
        }
        if (from == to) {
            return framing("Content-Length is empty");
        }
        long length = 0;
        for (int i = from; i < to; i++) {
            if (!isDigit(a[i])) {
                return framing("Content-Length is not a decimal number");
            }
            if (length > (Long.MAX_VALUE - 9) / 10) {
                return framing("Content-Length is too large");
            }
            length = length * 10 + a[i] - '0';
        }
        contentLength = length;
        return null;
    }

    /** Each list member of {@code Transfer-Encoding}; fields that repeat it add to the same list (RFC 9110 5.3). */
    private RequestRefused transferEncoding(byte[] a, int from, int to) {
        transferEncoding = true;
        for (int k = from; k < to; k++) {
            if (a[k] == '\t') {
                // Vert.x trims only spaces around list members when Netty asks whether "chunked" is there, so a tab
                // there would make it frame the body differently from this reader.
                return framing("Transfer-Encoding separates its codings with a tab");
            }
        }
        int i = from;
        while (i <= to) {
            int comma = i;
            while (comma < to && a[comma] != ',') {
                comma++;
            }
            int start = FieldSyntax.skipOws(a, i, comma);
            int end = FieldSyntax.trimOws(a, start, comma);
            // Empty members are allowed and ignored (RFC 9110 section 5.6.1).
            if (start < end) {
                int nameEnd = FieldSyntax.skipToken(a, start, end);
                if (nameEnd == start || nameEnd < end && a[nameEnd] != ';' && !FieldSyntax.isOws(a[nameEnd])) {
                    return framing("Transfer-Encoding is not a list of transfer codings");
                }
                lastIsChunked = end == nameEnd && FieldSyntax.equalsIgnoreCase(a, start, end, "chunked");
                if (lastIsChunked) {
                    chunkedCount++;
                } else {
                    otherCodings++;
                }
            }
            i = comma + 1;
        }
        return null;
    }

    /** RFC 9110 section 7.6.1 lets a message's own Connection header strip fields; never the ones that frame it. */
    private static RequestRefused connection(byte[] a, int from, int to) {
        int i = from;
        while (i <= to) {
            int comma = i;
            while (comma < to && a[comma] != ',') {
                comma++;
            }
            int start = FieldSyntax.skipOws(a, i, comma);
            int end = FieldSyntax.trimOws(a, start, comma);
            if (FieldSyntax.equalsIgnoreCase(a, start, end, "content-length")
                    || FieldSyntax.equalsIgnoreCase(a, start, end, "transfer-encoding")
                    || FieldSyntax.equalsIgnoreCase(a, start, end, "host")) {
                return framing("The Connection header names a field that frames or routes the request");
            }
            i = comma + 1;
        }
        return null;
    }

    /** An empty line at {@code a[from]}, which is a CR: the index after its LF. */
    private int lineEnd(byte[] a, int from, int to) {
        if (from + 1 == to) {
            return NEED_MORE;
        }
        return a[from + 1] == '\n' ? from + 2 : refuse(bad("A CR is not followed by LF"));
    }

    private int refuse(RequestRefused refused) {
        refusal = refused;
        return REFUSED;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    static RequestRefused bad(String detail) {
        return new RequestRefused(LocalReason.BAD_REQUEST, detail);
    }

    static RequestRefused framing(String detail) {
        return new RequestRefused(LocalReason.INVALID_FRAMING, detail);
    }
}
