package dev.portico.dataplane.http1;

import dev.portico.dataplane.Exchange;
import dev.portico.dataplane.LocalReason;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Sits in front of Netty's HTTP/1 decoder on one client connection and lets a byte through only once it knows the
 * byte belongs to a well-formed request, so Netty and every origin behind Portico read the same requests from the
 * stream. It follows the framing itself: request heads line by line ({@link RequestHead}), then a body of
 * {@code Content-Length} bytes (counted, not looked at) or a chunked body ({@link ChunkedBody}). Buffers pass
 * through untouched; at the first violation the bytes before it are passed and the rest of the connection's input
 * is dropped:
 * <ul>
 * <li>in a head, the decoder is handed a request whose decoder result is a {@link RequestRefused} failure, which
 * Vert.x routes to the invalid-request handler in its turn: the local reply, then the connection closes;</li>
 * <li>in a body, the exchange reading it is told: 400 if its response has not begun, else a reset.</li>
 * </ul>
 * It also ends heads that take too long ({@link GuardedConnections}) and serves clients that half-close after their
 * requests. Confined to the connection's event loop.
 */
public final class RequestGuard extends ChannelInboundHandlerAdapter {

    static final String NAME = "portico-request-guard";
    private static final AttributeKey<RequestGuard> KEY = AttributeKey.valueOf(RequestGuard.class, "guard");

    private static final int REQUEST_LINE = 0;
    private static final int FIELD_LINE = 1;
    private static final int FIXED_BODY = 2;
    private static final int CHUNK_SIZE_LINE = 3;
    private static final int CHUNK_DATA = 4;
    private static final int CHUNK_CR = 5;
    private static final int CHUNK_LF = 6;
    private static final int TRAILER_LINE = 7;
    /** A violation was found (or the input ended): every later byte is dropped. */
    private static final int STOPPED = 8;
    /** {@code TCP_CLOSE} in Linux's {@code tcp_info.tcpi_state}: the connection is gone (reset, or fully closed). */
    private static final int TCP_CLOSE = 7;
    /** Bytes copied at once for reading a head: most heads fit. A line longer than what is left is read on. */
    private static final int HEAD_WINDOW = 2048;
    /** Bytes copied at once for a chunk-size line or a trailer: short lines between long runs of data. */
    private static final int CHUNK_WINDOW = 128;

    private final GuardedConnections loop;
    private final RequestHead head;
    private final ChunkedBody chunks;
    private ChannelHandlerContext ctx;
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

    /** Heads passed to the decoder, and exchanges Portico opened for requests: pairs them in order. */
    private long headsPassed;
    private long exchangesSeen;
    /** The exchange in progress on this connection, if any. */
    private Exchange current;
    /** A broken body whose request has not reached Portico yet (queued behind another's response). */
    private RequestRefused pendingBodyFailure;

    /** The header timeout's bookkeeping, kept by {@link GuardedConnections}: list links and when waiting began. */
    RequestGuard previous;
    RequestGuard next;
    boolean listed;
    long waitingSince = -1;
    long waitingHeads;
    /** Half-closed while a response was due, and probed: the sweep checks whether the peer reset. */
    boolean watchingPeer;

    RequestGuard(GuardedConnections loop) {
        this.loop = loop;
        this.head = new RequestHead(loop.maxRequestLine(), loop.maxHeaderSize());
        this.chunks = new ChunkedBody(loop.maxHeaderSize());
    }

    /** The guard of the connection a request arrived on, or null (a connection that is not HTTP/1). */
    public static RequestGuard of(HttpServerRequest request) {
        HttpConnection connection = request.connection();
        return connection instanceof ConnectionBase ? ((ConnectionBase) connection).channel().attr(KEY).get() : null;
    }

    /** Lets {@link #of} find the guard from the connection's requests. */
    static void attachTo(Channel channel, RequestGuard guard) {
        channel.attr(KEY).set(guard);
    }

    /**
     * Portico opened an exchange for the next request on this connection. Returns the refusal to answer it with when
     * its body already broke while it waited for an earlier response; null otherwise.
     */
    public RequestRefused opened(Exchange exchange) {
        exchangesSeen++;
        current = exchange;
        if (pendingBodyFailure != null && exchangesSeen >= headsPassed) {
            RequestRefused failure = pendingBodyFailure;
            pendingBodyFailure = null;
            return failure;
        }
        return null;
    }

    /** The exchange is accounted: nothing on this connection needs it any more. */
    public void completed(Exchange exchange) {
        if (current == exchange) {
            current = null;
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        loop.add(this);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        loop.remove(this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        loop.remove(this);
        current = null;
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        if (phase == STOPPED) {
            in.release();
            return;
        }
        int start = in.readerIndex();
        scan(in, start, in.writerIndex());
        if (refusal == null) {
            ctx.fireChannelRead(in);
            return;
        }
        if (refusedFrom > start) {
            in.writerIndex(refusedFrom);
            ctx.fireChannelRead(in);
        } else {
            in.release();
        }
        RequestRefused refused = refusal;
        refusal = null;
        boolean inHead = phase == REQUEST_LINE || phase == FIELD_LINE;
        stop();
        if (inHead) {
            handOver(refused);
        } else {
            bodyFailed(refused);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent) {
            // Not passed on: the decoder would end its message, Vert.x would close the connection.
            inputShutDown();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    /** Follows the framing over {@code in[from, to)}; on a violation sets {@link #refusal} and stops. */
    private void scan(ByteBuf in, int from, int to) {
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

    private void stop() {
        phase = STOPPED;
        carry = null;
        carried = 0;
        loop.remove(this);
    }

    /**
     * Hands the decoder a request whose decoder result carries {@code cause}: Vert.x gives it to the invalid-request
     * handler after every response before it. {@code Connection: close} makes Vert.x drop whatever the decoder still
     * produces from bytes it held.
     */
    private void handOver(Exception cause) {
        HeadersMultiMap headers = HeadersMultiMap.httpHeaders();
        headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        DefaultHttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/bad-request",
                headers);
        request.setDecoderResult(DecoderResult.failure(cause));
        ctx.fireChannelRead(request);
        ctx.fireChannelRead(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    /** A body broke: its exchange answers 400 (or resets); if its request is still queued, it is told on arrival. */
    private void bodyFailed(RequestRefused refused) {
        if (exchangesSeen < headsPassed) {
            pendingBodyFailure = refused;
        } else if (current != null) {
            current.requestBodyMalformed(refused.reason(), refused.detail());
        } else {
            // Its response is already complete: nothing to answer, and nothing more can be read.
            ctx.close();
        }
    }

    /**
     * The client shut down its sending side (RFC 9112 section 9.6 lets it). Between requests, every request already
     * received is still answered, then the connection closes; in the middle of a head it gets a 400; in the middle of
     * a body the request can never complete, which is handled like a client that left.
     */
    private void inputShutDown() {
        int at = phase;
        boolean betweenRequests = at == REQUEST_LINE && carried == 0;
        if (at == STOPPED) {
            return;
        }
        stop();
        if (betweenRequests) {
            handOver(ClientHalfClosed.INSTANCE);
            if (current != null && current.clientHalfClosed()) {
                watchingPeer = true;
                loop.add(this);
            }
        } else if (at == REQUEST_LINE || at == FIELD_LINE) {
            handOver(RequestHead.bad("The client closed its side in the middle of a request head"));
        } else {
            ctx.close();
            return;
        }
        ctx.fireChannelReadComplete();
    }

    /** Whether a request head is due: one has begun, or none has come yet on a new connection. */
    boolean waitingForHead() {
        return phase == FIELD_LINE || phase == REQUEST_LINE && (carried > 0 || headsPassed == 0);
    }

    long headsPassed() {
        return headsPassed;
    }

    /** Whether Portico is reading the connection (not holding it back while a response is written). */
    boolean reading() {
        return ctx.channel().config().isAutoRead();
    }

    /**
     * Whether the client, half-closed and probed, turned out to have closed its socket entirely: its kernel answered
     * the probe with a reset. Then the connection is closed, which cancels the request like any client that leaves.
     * Stops watching once the response is done. Only the epoll transport can tell (its TCP_INFO); with NIO the
     * reset surfaces when the response is written.
     */
    void checkPeer() {
        Channel channel = ctx.channel();
        if (current == null || !channel.isActive()) {
            watchingPeer = false;
            loop.remove(this);
        } else if (channel instanceof EpollSocketChannel
                && ((EpollSocketChannel) channel).tcpInfo().state() == TCP_CLOSE) {
            watchingPeer = false;
            loop.remove(this);
            ctx.close();
        }
    }

    /** The header timeout passed: a head that began gets a 408; a connection that never sent a byte just closes. */
    void headTimedOut() {
        if (phase == REQUEST_LINE && carried == 0) {
            stop();
            ctx.close();
            return;
        }
        stop();
        handOver(new RequestRefused(LocalReason.REQUEST_HEADER_TIMEOUT, "The request head did not arrive within "
                + loop.headerTimeoutMillis() + " ms"));
        ctx.fireChannelReadComplete();
    }
}
