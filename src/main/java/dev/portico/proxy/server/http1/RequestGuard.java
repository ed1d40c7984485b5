package dev.portico.proxy.server.http1;

import dev.portico.proxy.core.ClientConnection;
import dev.portico.proxy.core.ClientTls;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.server.keepalive.KeepAliveTimeout;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.net.impl.ConnectionBase;

import java.io.IOException;

/**
 * Sits in front of Netty's HTTP/1 decoder on one client connection and lets a byte through only once it knows the
 * byte belongs to a well-formed request, so Netty and every origin behind Portico read the same requests from the
 * stream. It follows the framing with a {@link RequestStream}; buffers pass through untouched, and at the first
 * violation the bytes before it are passed and the rest of the connection's input is dropped:
 * <ul>
 * <li>in a head, the decoder is handed a request whose decoder result is a {@link RequestRefused} failure, which
 * Vert.x routes to the invalid-request handler in its turn: the local reply, then the connection closes;</li>
 * <li>in a body, the exchange reading it is told: 400 if its response has not begun, else a reset.</li>
 * </ul>
 * It also ends heads that take too long ({@link GuardedConnections}) and serves clients that half-close after their
 * requests. Confined to the connection's event loop.
 */
public final class RequestGuard extends ChannelInboundHandlerAdapter implements ClientConnection {

    static final String NAME = "portico-request-guard";
    private static final AttributeKey<RequestGuard> KEY = AttributeKey.valueOf(RequestGuard.class, "guard");

    /** nginx's {@code lingering_timeout}: a client quiet this long after a closing reply is done sending. */
    static final long LINGER_QUIET_NANOS = 5_000_000_000L;
    /** nginx's {@code lingering_time}: the longest a closing connection keeps reading what it drops. */
    static final long LINGER_MAX_NANOS = 30_000_000_000L;

    /** {@code TCP_CLOSE} in Linux's {@code tcp_info.tcpi_state}: the connection is gone (reset, or fully closed). */
    private static final int TCP_CLOSE = 7;

    private final GuardedConnections loop;
    private final RequestStream stream;
    private ChannelHandlerContext ctx;

    /** Exchanges Portico opened for requests: paired in order with the heads the stream passed. */
    private long exchangesSeen;
    /** The exchange in progress on this connection, if any. */
    private Exchange current;
    /** A broken body whose request has not reached Portico yet (queued behind another's response). */
    private RequestRefused pendingBodyFailure;
    /** What the connection's TLS handshake settled; null on cleartext (and before the first request over TLS). */
    private ClientTls tls;

    /** The header timeout's bookkeeping, kept by {@link GuardedConnections}: list links and when waiting began. */
    RequestGuard previous;
    RequestGuard next;
    boolean listed;
    long waitingSince = -1;
    long waitingHeads;
    /** Half-closed while a response was due, and probed: the sweep checks whether the peer reset. */
    boolean watchingPeer;
    /** Closing after a reply that left input unread: reading and dropping until the client stops sending. */
    boolean lingering;
    private long lingerStart;
    private long lastLingerRead;

    RequestGuard(GuardedConnections loop) {
        this.loop = loop;
        this.stream = new RequestStream(loop);
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
        if (pendingBodyFailure != null && exchangesSeen >= stream.headsPassed()) {
            RequestRefused failure = pendingBodyFailure;
            pendingBodyFailure = null;
            return failure;
        }
        return null;
    }

    /** The exchange is accounted: nothing on this connection needs it any more. */
    @Override
    public void completed(Exchange exchange) {
        if (current == exchange) {
            current = null;
        }
    }

    /** A request on this connection is being answered: from its exchange's opening until it is accounted. */
    boolean answering() {
        return current != null;
    }

    @Override
    public ClientTls tls() {
        return tls;
    }

    /** Keeps what the connection's TLS handshake settled, read when its first request arrived. */
    public void tls(ClientTls tls) {
        this.tls = tls;
    }

    /** HTTP/1.1 clients only get interim responses; see {@link InterimResponse}. */
    @Override
    public boolean sendInterim(int status, String reasonPhrase, MultiMap headers, CharSequence via) {
        return current != null && InterimResponse.send(current.request(), status, reasonPhrase, headers, via);
    }

    /**
     * The probe is an interim {@code 100 Continue}, which HTTP/1.1 clients must accept unexpected (RFC 9110 section
     * 15.2); HTTP/1.0 clients get none.
     */
    @Override
    public boolean probeHalfClosed() {
        if (current == null || current.request().version() != io.vertx.core.http.HttpVersion.HTTP_1_1) {
            return false;
        }
        current.response().writeContinue();
        return true;
    }

    /**
     * The guard leaves the pipeline: the bytes that follow the {@code 101} are the new protocol's, which it would
     * refuse as malformed requests. So does the HTTP idle timeout (the tunnel keeps its own), and half-closure is
     * turned off again: a tunnel ends when either peer closes, so a client's FIN must close the connection rather
     * than wait for responses as it does between HTTP requests.
     */
    @Override
    public void switchedProtocols() {
        stop();
        current = null;
        Channel channel = ctx.channel();
        channel.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, false);
        ChannelPipeline pipeline = ctx.pipeline();
        if (pipeline.get(KeepAliveTimeout.NAME) != null) {
            pipeline.remove(KeepAliveTimeout.NAME);
        }
        pipeline.remove(this);
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
        if (stream.stopped()) {
            if (lingering) {
                lastLingerRead = System.nanoTime();
            }
            in.release();
            return;
        }
        int start = in.readerIndex();
        int refusedFrom = stream.scan(in, start, in.writerIndex());
        if (refusedFrom < 0) {
            ctx.fireChannelRead(in);
            return;
        }
        if (refusedFrom > start) {
            in.writerIndex(refusedFrom);
            ctx.fireChannelRead(in);
        } else {
            in.release();
        }
        RequestRefused refused = stream.refusal();
        boolean inHead = stream.inHead();
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

    /**
     * While lingering, failures are not passed on: Vert.x closes a connection on any (after answering a refused
     * request it fires the refusal itself), and closing now would reset the reply lingering protects. A failure of
     * the socket itself ends lingering with a close.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (!lingering) {
            super.exceptionCaught(ctx, cause);
        } else if (cause instanceof IOException) {
            ctx.close();
        }
    }

    private void stop() {
        stream.stop();
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
        if (exchangesSeen < stream.headsPassed()) {
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
        if (lingering) {
            // The client has sent all it will: the reply had its chance to be read, close now.
            ctx.close();
            return;
        }
        if (stream.stopped()) {
            return;
        }
        boolean betweenRequests = stream.betweenRequests();
        boolean inHead = stream.inHead();
        stop();
        if (betweenRequests) {
            handOver(ClientHalfClosed.INSTANCE);
            if (current != null && current.clientHalfClosed()) {
                watchingPeer = true;
                loop.add(this);
            }
        } else if (inHead) {
            handOver(RequestHead.bad("The client closed its side in the middle of a request head"));
        } else {
            ctx.close();
            return;
        }
        ctx.fireChannelReadComplete();
    }

    /** Whether a request head is due: one has begun, or none has come yet on a new connection. */
    boolean waitingForHead() {
        return stream.waitingForHead();
    }

    long headsPassed() {
        return stream.headsPassed();
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

    /**
     * Closes the connection after a reply that left part of the request unread (a 413, a refused body, a timeout),
     * the way RFC 9112 section 9.6 asks and nginx's {@code lingering_close} does: the reply is flushed, this side is
     * shut down (FIN), and whatever the client still sends is read and dropped until it closes its side, stays
     * quiet for {@link #LINGER_QUIET_NANOS}, or {@link #LINGER_MAX_NANOS} pass. Closing at once instead makes the
     * kernel answer the client's next bytes with a reset, which can destroy the reply before the client reads it:
     * curl, for one, then reports a send failure instead of the 413. Runs on the connection's event loop.
     */
    @Override
    public void lingerThenClose() {
        if (lingering) {
            return;
        }
        stop();
        lingering = true;
        watchingPeer = false;
        lingerStart = lastLingerRead = System.nanoTime();
        loop.add(this);
        Channel channel = ctx.channel();
        ChannelPromise flushed = ctx.newPromise();
        // Behind every write already queued (the reply): FIFO, so this completes once the reply is on the wire.
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER, flushed);
        flushed.addListener(written -> {
            if (!written.isSuccess() || !(channel instanceof DuplexChannel)) {
                channel.close();
                return;
            }
            ((DuplexChannel) channel).shutdownOutput();
            // Vert.x paused reading for the request it answered; the dropping above needs the bytes to come in.
            channel.config().setAutoRead(true);
            channel.read();
        });
    }

    /** The sweep's check of a lingering connection: closes it once the client went quiet or lingering took too long. */
    void checkLinger(long now) {
        if (!ctx.channel().isActive()) {
            lingering = false;
            loop.remove(this);
        } else if (now - lastLingerRead >= LINGER_QUIET_NANOS || now - lingerStart >= LINGER_MAX_NANOS) {
            lingering = false;
            loop.remove(this);
            ctx.close();
        }
    }

    /** The header timeout passed: a head that began gets a 408; a connection that never sent a byte just closes. */
    void headTimedOut() {
        if (stream.betweenRequests()) {
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
