package dev.portico.proxy.server.keepalive;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.vertx.core.http.HttpServerOptions;

import java.util.function.BooleanSupplier;

/**
 * The data plane's idle timeout as a keep-alive timeout, like nginx's {@code keepalive_timeout}: it ends a client
 * connection that waits between requests, never one that is still answering a request. It replaces the idle handler
 * Vert.x puts on every server connection (same name, same timeouts), which counts any quiet spell, so a request
 * waiting for a slow upstream longer than the idle timeout (a long poll the vhost's read timeout allows) or a quiet
 * event stream had its client connection closed under it. While a request is being answered and Portico has
 * nothing unsent for the client, the wait is Portico's own (for an upstream, for the next piece of a stream) and
 * that request's deadlines bound it: the upstream connect and read timeouts, the body relays' idle timeouts. A
 * client that stops reading is another matter: its unsent bytes make it idle as before, so a response Portico writes
 * itself (a static file, a cached one), which has no send timeout of its own, cannot hold a connection forever.
 * Between requests, and before the first, nothing changes: the timeout counts from the last byte read or written.
 */
public final class KeepAliveTimeout extends IdleStateHandler {

    /** The name of Vert.x's idle handler in a server connection's pipeline. */
    public static final String NAME = "idle";

    private final BooleanSupplier answering;

    private KeepAliveTimeout(HttpServerOptions options, BooleanSupplier answering) {
        super(options.getReadIdleTimeout(), options.getWriteIdleTimeout(), options.getIdleTimeout(),
                options.getIdleTimeoutUnit());
        this.answering = answering;
    }

    /**
     * Swaps the idle handler Vert.x gave this connection for one that leaves the connection alone while
     * {@code answering} says a request is in progress that waits on Portico, not on the client. A pipeline without
     * one (no idle timeout configured) is left as it is. Call on the connection's event loop.
     */
    public static void replaceIn(ChannelPipeline pipeline, HttpServerOptions options, BooleanSupplier answering) {
        ChannelHandler idle = pipeline.get(NAME);
        if (idle instanceof IdleStateHandler && !(idle instanceof KeepAliveTimeout)) {
            pipeline.replace(NAME, NAME, new KeepAliveTimeout(options, answering));
        }
    }

    /**
     * Passes the event on (Vert.x closes the connection) unless a request is in progress with nothing waiting for
     * the client to read it. Swallowed, the event comes again after another whole timeout without a byte either
     * way, so a connection idle once its answer is done closes a timeout after that answer's last byte.
     */
    @Override
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent event) {
        if (!answering.getAsBoolean() || !nothingUnsent(ctx.channel())) {
            ctx.fireUserEventTriggered(event);
        }
    }

    /** Whether every byte written to the connection has gone to the socket: the client is not holding any back. */
    private static boolean nothingUnsent(Channel channel) {
        ChannelOutboundBuffer unsent = channel.unsafe().outboundBuffer();
        return unsent == null || unsent.totalPendingWriteBytes() == 0;
    }
}
