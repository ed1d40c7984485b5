package dev.portico.dataplane.http1;

import dev.portico.dataplane.LocalReason;

/**
 * Checks one request head line by line, as RFC 9112 writes it and nothing looser, and works out how the body that
 * follows is framed. Every check refuses what a lenient parser would repair: a tab or two spaces between the parts
 * of the request line, control bytes or malformed UTF-8 in the target, a field line folded onto the previous one
 * (obs-fold) or with an empty name, any {@code Transfer-Encoding} but a lone {@code chunked}. A message whose
 * framing two parsers could read differently is the start of request smuggling, so it never goes further.
 * Reused for every request of a connection: {@link #reset()} between them.
 */
final class RequestHead {

    /** {@link #bodyLength()} for a chunked body. */
    static final long CHUNKED = -1;

    private final int maxRequestLine;
    private final int maxHeaderSize;

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

    /**
     * Checks {@code method SP request-target SP HTTP-version} (RFC 9112 section 3), the line without its CRLF.
     *
     * @return null when it is acceptable, else why not
     */
    RequestRefused requestLine(byte[] a, int from, int to) {
        if (to - from > maxRequestLine) {
            return new RequestRefused(LocalReason.URI_TOO_LONG, "The request line is longer than "
                    + maxRequestLine + " bytes");
        }
        int i = FieldSyntax.skipToken(a, from, to);
        if (i == from || i == to || a[i] != ' ') {
            return bad("The request line must be a method, one space, the target, one space and the version");
        }
        get = i - from == 3 && a[from] == 'G' && a[from + 1] == 'E' && a[from + 2] == 'T';
        int target = ++i;
        boolean nonAscii = false;
        while (i < to && FieldSyntax.isTarget(a[i])) {
            nonAscii |= a[i] < 0;
            i++;
        }
        if (i == target || i == to) {
            return bad("The request line must be a method, one space, the target, one space and the version");
        }
        if (a[i] != ' ') {
            return bad(String.format("The request target contains the control byte 0x%02X", a[i] & 0xFF));
        }
        if (nonAscii && !FieldSyntax.isUtf8(a, target, i)) {
            // Portico carries the target as text and writes it upstream as UTF-8, so other bytes could not be
            // forwarded as they arrived; percent-encoding them would change the target.
            return bad("The request target has bytes above 0x7F that are not UTF-8 (percent-encode them)");
        }
        int version = i + 1;
        if (to - version != 8 || a[version] != 'H' || a[version + 1] != 'T' || a[version + 2] != 'T'
                || a[version + 3] != 'P' || a[version + 4] != '/' || !isDigit(a[version + 5])
                || a[version + 6] != '.' || !isDigit(a[version + 7])) {
            return bad("The request line does not end with one space and an HTTP version such as HTTP/1.1");
        }
        if (a[version + 5] != '1') {
            return new RequestRefused(LocalReason.HTTP_VERSION_NOT_SUPPORTED, "Only HTTP/1.x is served on an "
                    + "HTTP/1 connection");
        }
        // RFC 9110 section 2.5: a higher minor version is handled as the highest one we implement, HTTP/1.1.
        http10 = a[version + 7] == '0';
        return null;
    }

    /**
     * Checks one field line, {@code field-name ":" OWS field-value OWS} (RFC 9112 section 5), without its CRLF,
     * and takes note of the fields that frame the body.
     *
     * @return null when it is acceptable, else why not
     */
    RequestRefused field(byte[] a, int from, int to) {
        headerBytes += to - from;
        if (headerBytes > maxHeaderSize) {
            return new RequestRefused(LocalReason.HEADERS_TOO_LARGE, "The request's header fields are larger than "
                    + maxHeaderSize + " bytes");
        }
        int colon = FieldSyntax.skipToken(a, from, to);
        RequestRefused malformed = checkFieldLine(a, from, colon, to);
        if (malformed != null) {
            return malformed;
        }
        int valueStart = FieldSyntax.skipOws(a, colon + 1, to);
        int valueEnd = FieldSyntax.trimOws(a, valueStart, to);
        switch (colon - from) {
            case 10:
                return FieldSyntax.equalsIgnoreCase(a, from, colon, "connection") ? connection(a, valueStart, valueEnd)
                        : null;
            case 14:
                return FieldSyntax.equalsIgnoreCase(a, from, colon, "content-length")
                        ? contentLength(a, valueStart, valueEnd) : null;
            case 17:
                return FieldSyntax.equalsIgnoreCase(a, from, colon, "transfer-encoding")
                        ? transferEncoding(a, valueStart, valueEnd) : null;
            case 18:
                webSocketKey1 |= FieldSyntax.equalsIgnoreCase(a, from, colon, "sec-websocket-key1");
                webSocketKey2 |= FieldSyntax.equalsIgnoreCase(a, from, colon, "sec-websocket-key2");
                return null;
            default:
                return null;
        }
    }

    /**
     * The syntax of a field line (also of a trailer field), given where its name ends; null when well formed.
     */
    static RequestRefused checkFieldLine(byte[] a, int from, int nameEnd, int to) {
        if (a[from] == ' ' || a[from] == '\t') {
            return bad("A field line starts with whitespace (obs-fold, RFC 9112 section 5.2, is not accepted)");
        }
        if (nameEnd == to || a[nameEnd] != ':') {
            return bad("A field line is not a token, a colon and a value");
        }
        if (nameEnd == from) {
            return bad("A field line has an empty name");
        }
        for (int i = nameEnd + 1; i < to; i++) {
            if (!FieldSyntax.isFieldValue(a[i])) {
                return bad(String.format("A field value contains the control byte 0x%02X", a[i] & 0xFF));
            }
        }
        return null;
    }

    /**
     * At the blank line that ends the head: whether its framing is acceptable; then {@link #bodyLength()} says how
     * the body is framed.
     *
     * @return null when it is acceptable, else why not
     */
    RequestRefused end() {
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
