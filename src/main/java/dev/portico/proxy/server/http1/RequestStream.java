package dev.portico.proxy.server.http1;

import dev.portico.proxy.core.outcome.LocalReason;
import io.netty.buffer.ByteBuf;

/**
 * Follows the framing of one connection's request stream across the buffers it arrives in: request heads line by
 * line ({@link RequestHead}), then a body of {@code Content-Length} bytes (counted, not looked at) or a chunked body
 * ({@link ChunkedBody}), then the next head. Says where the first byte that does not belong to a well-formed
 * request is; after that the stream is not read on. Lines are read from an array: each read is copied into one once
 * (a window, usually the whole head) and every line checked in a single pass; a line that a buffer ends in the
 * middle of is kept and read again, whole, once a later buffer brings its LF. Confined to the connection's loop.
 */
final class RequestStream {

    private static final int REQUEST_LINE = 0;
    private static final int FIELD_LINE = 1;
    private static final int FIXED_BODY = 2;
    private static final int CHUNK_SIZE_LINE = 3;
    private static final int CHUNK_DATA = 4;
    private static final int CHUNK_CR = 5;
    private static final int CHUNK_LF = 6;
    private static final int TRAILER_LINE = 7;
    /** A violation was found, or the input ended: nothing more is read. */
    private static final int STOPPED = 8;
    /** Bytes copied at once for reading a head: most heads fit. A line longer than what is left is read on. */
    private static final int HEAD_WINDOW = 2048;
    /** Bytes copied at once for a chunk-size line or a trailer: short lines between long runs of data. */
    private static final int CHUNK_WINDOW = 128;
    /** The largest array for kept lines a connection holds on to between lines. */
    private static final int KEPT_LINE_RETAINED = 1024;

    private final GuardedConnections loop;
    private final RequestHead head;
    private final ChunkedBody chunks;
    private int phase = REQUEST_LINE;
    /** Bytes left of a fixed-length body or of the current chunk's data. */
    private long remaining;
    /** The start of a line that did not end in the buffers read so far. */
    private byte[] carry;
    private int carried;
    /** Set by a scan that found a violation: the refusal, and the buffer index where the refused bytes start. */
    private RequestRefused refusal;
    private int refusedFrom;
    /** Why the line just read was refused. */
    private RequestRefused lineRefusal;
    /** Heads read whole and accepted. */
    private long headsPassed;

    RequestStream(GuardedConnections loop) {
        this.loop = loop;
        this.head = new RequestHead(loop.maxRequestLine(), loop.maxHeaderSize());
        this.chunks = new ChunkedBody(loop.maxHeaderSize());
    }

    /** Why the last {@link #scan} stopped. */
    RequestRefused refusal() {
        return refusal;
    }

    /** Whether the stream is in a request head (or before one, having read part of its first line). */
    boolean inHead() {
        return phase == REQUEST_LINE || phase == FIELD_LINE;
    }

    /** Whether the stream stands between two requests, with no byte of the next one read. */
    boolean betweenRequests() {
        return phase == REQUEST_LINE && carried == 0;
    }

    boolean stopped() {
        return phase == STOPPED;
    }

    /** Reads no more. */
    void stop() {
        phase = STOPPED;
        carry = null;
        carried = 0;
    }

    /** Heads read whole and accepted so far. */
    long headsPassed() {
        return headsPassed;
    }

    /** Whether a request head is due: one has begun, or none has come yet on a new connection. */
    boolean waitingForHead() {
        return phase == FIELD_LINE || phase == REQUEST_LINE && (carried > 0 || headsPassed == 0);
    }

    /**
     * Follows the framing over {@code in[from, to)}. Returns -1 when every byte belongs to a well-formed request so
     * far; otherwise the buffer index where the refused bytes start (those before it may be passed on), and
     * {@link #refusal()} says why.
     */
    int scan(ByteBuf in, int from, int to) {
        refusal = null;
        int i = from;
        while (i < to && refusal == null) {
            switch (phase) {
                case FIXED_BODY:
                case CHUNK_DATA: {
                    int n = (int) Math.min(remaining, to - i);
                    i += n;
                    remaining -= n;
                    if (remaining == 0) {
                        if (phase == FIXED_BODY) {
                            requestEnded();
                        } else {
                            phase = CHUNK_CR;
                        }
                    }
                    break;
                }
                case CHUNK_CR:
                case CHUNK_LF:
                    if (in.getByte(i) != (phase == CHUNK_CR ? '\r' : '\n')) {
                        refuse(ChunkedBody.malformed("A chunk's data is longer than its size"), i);
                    } else {
                        phase = phase == CHUNK_CR ? CHUNK_LF : CHUNK_SIZE_LINE;
                        i++;
                    }
                    break;
                default:
                    i = lines(in, i, to, from);
            }
        }
        return refusal == null ? -1 : refusedFrom;
    }

    /**
     * Reads lines from {@code in[i]} while the phase is one that reads lines, and returns the buffer index where it
     * stopped. The bytes are copied once into an array window and checked there in a single pass; a line that the
     * buffer ends in the middle of is kept and read again, whole, once a later buffer brings its LF.
     */
    private int lines(ByteBuf in, int i, int to, int bufferStart) {
        if (carried > 0 && in.indexOf(i, to, (byte) '\n') < 0) {
            // No line can end in these bytes: keep them without reading the line again, so a line sent a byte at
            // a time costs linear time.
            if (carried + to - i > lineLimit()) {
                refuse(tooLong(), bufferStart);
            } else {
                keep(in, i, to);
            }
            return to;
        }
        int window = phase == REQUEST_LINE || phase == FIELD_LINE ? HEAD_WINDOW : CHUNK_WINDOW;
        byte[] w;
        int base;
        int length;
        if (carried > 0) {
            int n = Math.min(to - i, window);
            w = carry(carried + n, carried);
            in.getBytes(i, w, carried, n);
            base = i - carried;
            length = carried + n;
            carried = 0;
        } else {
            w = loop.scratch();
            length = Math.min(to - i, window);
            in.getBytes(i, w, 0, length);
            base = i;
        }
        int p = 0;
        while (readsLines()) {
            int end = p == length ? RequestHead.NEED_MORE : readLine(w, p, length);
            if (end >= 0) {
                p = end;
                continue;
            }
            if (end == RequestHead.REFUSED) {
                refuse(lineRefusal, Math.max(base + p, bufferStart));
                lineRefusal = null;
                return to;
            }
            int partial = length - p;
            // As strict as Netty's own check on a line without its LF yet, so the guard always speaks first.
            if (partial > lineLimit()) {
                refuse(tooLong(), Math.max(base + p, bufferStart));
                return to;
            }
            int next = base + length;
            if (next >= to) {
                byte[] kept = carry(partial, 0);
                System.arraycopy(w, p, kept, 0, partial);
                carried = partial;
                return to;
            }
            // The window ended inside the line: move the line to the front and read more of the buffer behind it.
            int n = Math.min(to - next, Math.max(window, partial));
            if (w == carry) {
                System.arraycopy(w, p, w, 0, partial);
                w = carry(partial + n, partial);
            } else {
                n = Math.min(n, w.length - partial);
                System.arraycopy(w, p, w, 0, partial);
            }
            in.getBytes(next, w, partial, n);
            base = next - partial;
            length = partial + n;
            p = 0;
        }
        if (carry != null && carry.length > KEPT_LINE_RETAINED) {
            // A long line was kept once: the memory goes back rather than stay with an idle connection.
            carry = null;
        }
        return base + p;
    }

    private boolean readsLines() {
        return phase == REQUEST_LINE || phase == FIELD_LINE || phase == CHUNK_SIZE_LINE || phase == TRAILER_LINE;
    }

    /** Reads the line at {@code w[p]} in the current phase and moves to the next phase when it ends one. */
    private int readLine(byte[] w, int p, int length) {
        int end;
        switch (phase) {
            case REQUEST_LINE:
                end = head.requestLine(w, p, length);
                if (end >= 0 && w[p] != '\r') {
                    phase = FIELD_LINE;
                }
                break;
            case FIELD_LINE:
                end = head.fieldLine(w, p, length);
                if (end >= 0 && head.ended()) {
                    RequestRefused refused = headEnded();
                    if (refused != null) {
                        lineRefusal = refused;
                        return RequestHead.REFUSED;
                    }
                }
                break;
            case CHUNK_SIZE_LINE:
                end = chunks.sizeLine(w, p, length);
                if (end >= 0) {
                    remaining = chunks.size();
                    phase = remaining == 0 ? TRAILER_LINE : CHUNK_DATA;
                }
                break;
            default:
                end = chunks.trailerLine(w, p, length);
                if (end >= 0 && chunks.ended()) {
                    requestEnded();
                }
                break;
        }
        if (end == RequestHead.REFUSED) {
            lineRefusal = phase == REQUEST_LINE || phase == FIELD_LINE ? head.refusal() : chunks.refusal();
        }
        return end;
    }

    private RequestRefused headEnded() {
        RequestRefused refused = head.framingVerdict();
        if (refused != null) {
            return refused;
        }
        long body = head.bodyLength();
        head.reset();
        headsPassed++;
        if (body == RequestHead.CHUNKED) {
            chunks.reset();
            phase = CHUNK_SIZE_LINE;
        } else if (body > 0) {
            remaining = body;
            phase = FIXED_BODY;
        } else {
            phase = REQUEST_LINE;
        }
        return null;
    }

    private void requestEnded() {
        phase = REQUEST_LINE;
    }

    private int lineLimit() {
        switch (phase) {
            case REQUEST_LINE:
                return head.maxRequestLine();
            case FIELD_LINE:
                return Math.max(head.headerBytesLeft(), 0);
            case CHUNK_SIZE_LINE:
                return ChunkedBody.MAX_SIZE_LINE;
            default:
                return loop.maxHeaderSize();
        }
    }

    private RequestRefused tooLong() {
        switch (phase) {
            case REQUEST_LINE:
                return new RequestRefused(LocalReason.URI_TOO_LONG, "The request line is longer than "
                        + head.maxRequestLine() + " bytes");
            case FIELD_LINE:
                return new RequestRefused(LocalReason.HEADERS_TOO_LARGE, "The request's header fields are larger "
                        + "than " + loop.maxHeaderSize() + " bytes");
            case CHUNK_SIZE_LINE:
                return ChunkedBody.malformed("A chunk-size line is longer than " + ChunkedBody.MAX_SIZE_LINE
                        + " bytes");
            default:
                return ChunkedBody.malformed("The trailer section is larger than " + loop.maxHeaderSize() + " bytes");
        }
    }

    /** Appends {@code in[from, to)} to the kept start of a line (the line limit bounds it). */
    private void keep(ByteBuf in, int from, int to) {
        byte[] kept = carry(carried + to - from, carried);
        in.getBytes(from, kept, carried, to - from);
        carried += to - from;
    }

    /** The array for a kept line, at least {@code capacity} long, its first {@code keep} bytes preserved. */
    private byte[] carry(int capacity, int keep) {
        if (carry == null || carry.length < capacity) {
            // Doubling: a line dribbled in byte by byte is copied a bounded number of times.
            byte[] larger = new byte[Math.max(capacity, carry == null ? 256 : carry.length * 2)];
            if (carry != null) {
                System.arraycopy(carry, 0, larger, 0, keep);
            }
            carry = larger;
        }
        return carry;
    }

    private void refuse(RequestRefused refused, int at) {
        refusal = refused;
        refusedFrom = at;
    }
}
