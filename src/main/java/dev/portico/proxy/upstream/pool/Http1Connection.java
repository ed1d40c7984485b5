package dev.portico.proxy.upstream.pool;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

import java.nio.channels.ClosedChannelException;

/**
 * One keep-alive HTTP/1.1 connection of an {@link Http1Pool}, carrying one exchange at a time (no pipelining): the
 * request is written through the connection's {@link UpstreamCodec}, and the response reaches the exchange's
 * {@link ResponseListener} as Netty decoded it, each body piece in the decoder's own pooled memory, with no
 * intermediate object or copy. When both the request and the response have ended on a connection that stays open
 * ({@code Connection: keep-alive} semantics of RFC 9112 section 9.3), it goes back to its pool; otherwise it closes.
 * Lives on its pool's event loop; not thread-safe.
 */
public final class Http1Connection extends ChannelInboundHandlerAdapter {

    /** What becomes of one exchange's response, on the connection's event loop. Exactly one of end or failed. */
    public interface ResponseListener {
        /** The final response head (interim ones go to the codec's {@link UpstreamCodec.InterimListener}). */
        void head(HttpResponse head);

        /** A piece of the body: pooled memory the listener owns and must release exactly once. */
        void piece(ByteBuf piece);

        /** The body ended; {@code trailers} are the chunked coding's trailer fields (often none). */
        void end(HttpHeaders trailers);

        /** The exchange failed: the connection broke, the response was malformed, or the exchange was reset. */
        void failed(Throwable cause);
    }

    static final String HANDLER_NAME = "portico-http1-exchange";

    private final Channel channel;
    private final Http1Pool pool;
    private final UpstreamCodec codec;
    private ResponseListener listener;
    private Runnable drainHandler;
    private boolean requestEnded;
    private boolean responseEnded;
    /**
     * The final response head: whether it lets the connection carry another exchange is read at its end, since the
     * codec marks it {@code Connection: close} when bytes follow the body.
     */
    private HttpResponse responseHead;
    /** When the connection went back to its pool's idle list, in {@link System#nanoTime()}. */
    long idleSince;
    /** How long the origin keeps it open when idle ({@code Keep-Alive: timeout}), in nanoseconds; 0 for unknown. */
    long originKeepAliveNanos;
    /** An exchange was sent and is not yet done: {@link #done()} acts once per exchange. */
    private boolean exchangeOpen;

    Http1Connection(Channel channel, Http1Pool pool, UpstreamCodec codec) {
        this.channel = channel;
        this.pool = pool;
        this.codec = codec;
    }

    /** The connection's codec: it reports interim responses and tells a stale keep-alive connection. */
    public UpstreamCodec codec() {
        return codec;
    }

    public Channel channel() {
        return channel;
    }

    /**
     * Starts an exchange: writes the request head and sends what comes back to {@code listener}. A
     * {@link FullHttpRequest} is the whole request, written and flushed at once; any other head is written unflushed,
     * for its body to follow ({@link #write}, {@link #end}) in the framing its fields name ({@code Content-Length} or
     * {@code Transfer-Encoding: chunked}).
     */
    public void send(HttpRequest head, ResponseListener listener) {
        this.listener = listener;
        exchangeOpen = true;
        responseEnded = false;
        responseHead = null;
        if (head instanceof FullHttpRequest) {
            requestEnded = true;
            channel.writeAndFlush(head, channel.voidPromise());
        } else {
            requestEnded = false;
            channel.write(head, channel.voidPromise());
        }
    }

    /** Writes a piece of the request body (this connection takes ownership of {@code piece}). */
    public void write(ByteBuf piece, ChannelFutureListener written) {
        channel.writeAndFlush(new DefaultHttpContent(piece)).addListener(written);
    }

    /** Ends the request body, with an optional last piece and trailer fields. */
    public void end(ByteBuf last, HttpHeaders trailers, ChannelFutureListener written) {
        requestEnded = true;
        LastHttpContent end = trailers == null || trailers.isEmpty() ? new DefaultLastHttpContent(last)
                : new DefaultLastHttpContent(last, trailers);
        channel.writeAndFlush(end).addListener(written);
        if (responseEnded) {
            // The response came before the body was sent (an early answer): only now is the exchange over.
            done();
        }
    }

    /** Whether the request body must wait: the socket's send buffer and Netty's queue are full. */
    public boolean writeQueueFull() {
        return !channel.isWritable();
    }

    /** Runs once when {@link #writeQueueFull()} becomes false again. */
    public void drainHandler(Runnable handler) {
        drainHandler = handler;
    }

    /** Stops reading the response (the client is slower than the upstream). */
    public void pause() {
        channel.config().setAutoRead(false);
    }

    public void resume() {
        channel.config().setAutoRead(true);
    }

    /**
     * Gives up on the exchange: the connection closes (its state is unknown mid-message) and the listener, if the
     * response has not ended, fails with {@code cause}.
     */
    public void reset(Throwable cause) {
        ResponseListener told = listener;
        listener = null;
        channel.close();
        if (told != null && !responseEnded) {
            told.failed(cause);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpObject message)) {
            // Raw bytes: the decoder took a 101 for a switch (the codec marks one nobody asked for as malformed).
            ReferenceCountUtil.release(msg);
            reset(new DecoderException("bytes after a 101 Switching Protocols no request asked for"));
            return;
        }
        ResponseListener to = listener;
        if (message.decoderResult().isFailure()) {
            release(message);
            reset(new DecoderException("invalid response from the upstream", message.decoderResult().cause()));
            return;
        }
        if (to == null) {
            // Nothing asked for it (a reset exchange's rest): the codec closes a connection that speaks unasked.
            release(message);
            return;
        }
        if (message instanceof HttpResponse response) {
            responseHead = response;
            to.head(response);
        }
        if (message instanceof HttpContent content) {
            ByteBuf piece = content.content();
            if (piece.isReadable()) {
                to.piece(piece);
            } else {
                piece.release();
            }
            if (message instanceof LastHttpContent last && listener == to) {
                responseEnded = true;
                listener = null;
                to.end(last.trailingHeaders());
                if (requestEnded) {
                    done();
                }
            }
        }
    }

    private static void release(HttpObject message) {
        if (message instanceof HttpContent content) {
            content.release();
        }
    }

    /** Both messages are complete: the connection serves the next exchange, or closes. */
    private void done() {
        if (!exchangeOpen) {
            return;
        }
        exchangeOpen = false;
        drainHandler = null;
        if (responseHead != null && HttpUtil.isKeepAlive(responseHead) && channel.isActive()) {
            originKeepAliveNanos = KeepAliveField.timeoutNanos(responseHead.headers().get(HttpHeaderNames.KEEP_ALIVE));
            // The last reader may have paused the socket for a slow client just before the end came.
            channel.config().setAutoRead(true);
            pool.recycle(this);
        } else {
            channel.close();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Runnable handler = drainHandler;
        if (handler != null && channel.isWritable()) {
            drainHandler = null;
            handler.run();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ResponseListener told = listener;
        listener = null;
        if (told != null && !responseEnded) {
            told.failed(new ClosedChannelException());
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        reset(cause);
    }
}
