package dev.portico.proxy.upstream.pool;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Sits between an upstream connection's codec and Vert.x and can hand the pieces of a response body straight to a
 * taker, so Vert.x sees only the body's end. Through Vert.x each piece is copied twice: to a heap buffer (Vert.x
 * copies the pooled memory it hands out) and back to direct memory when written to the client's socket. On a
 * 100 KiB response those copies, and zeroing the heap arrays, were most of Portico's user time; handed over, the
 * decoder's own direct memory goes to the client's socket as it is.
 *
 * <p>The taker is then the only reader: pausing the Vert.x response no longer holds the socket back (nothing of the
 * body is queued in Vert.x), so the taker pauses and resumes reading here. Runs on the connection's event loop.
 */
public final class BodyHandoff extends ChannelInboundHandlerAdapter implements BodySource {

    private static final String NAME = "portico-body-handoff";

    private ChannelHandlerContext context;
    private BodyTaker taker;
    /** Whether some of the current response's body went to Vert.x: then Vert.x must get the rest too. */
    private boolean bodyToVertx;

    /** Installs the handoff right after the connection's codec (named {@code codecName}). */
    static void install(ChannelPipeline pipeline, String codecName) {
        pipeline.addAfter(codecName, NAME, new BodyHandoff());
    }

    /** The handoff of a connection, or null when it has none. */
    public static BodyHandoff of(HttpConnection connection) {
        ChannelHandler handler = ((ConnectionBase) connection).channelHandlerContext().pipeline().get(NAME);
        return handler instanceof BodyHandoff handoff ? handoff : null;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
    }

    /**
     * Gives the rest of the current response's body to {@code taker}. Call while Vert.x handles the response head:
     * Netty delivers the head and the body pieces decoded with it one at a time, so none has gone past yet.
     *
     * @return false when some of the body already reached Vert.x (the caller then reads it from Vert.x)
     */
    @Override
    public boolean take(BodyTaker taker) {
        if (bodyToVertx) {
            return false;
        }
        this.taker = taker;
        return true;
    }

    @Override
    public void pause() {
        context.channel().config().setAutoRead(false);
    }

    @Override
    public void resume() {
        context.channel().config().setAutoRead(true);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpResponse) {
            // Interim heads never get here (the codec keeps them from Vert.x): this one starts a body.
            taker = null;
            bodyToVertx = false;
        } else if (msg instanceof HttpContent content) {
            if (taker == null) {
                bodyToVertx |= content.content().isReadable();
            } else {
                msg = handOver(content);
                if (msg == null) {
                    return;
                }
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Gives a piece to the taker; returns what Vert.x still gets: nothing, or the end (with any trailers). */
    private Object handOver(HttpContent content) {
        BodyTaker to = taker;
        ByteBuf piece = content.content();
        LastHttpContent end = null;
        if (content instanceof LastHttpContent) {
            taker = null;
            LastHttpContent lastContent = (LastHttpContent) content;
            end = lastContent.trailingHeaders().isEmpty() ? LastHttpContent.EMPTY_LAST_CONTENT
                    : new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER, lastContent.trailingHeaders());
        }
        if (piece.isReadable()) {
            to.take(piece);
        } else {
            piece.release();
        }
        return end;
    }
}
