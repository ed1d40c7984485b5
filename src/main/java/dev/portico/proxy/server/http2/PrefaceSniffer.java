package dev.portico.proxy.server.http2;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The only handler of a new cleartext connection on a listener that accepts h2c: reads its first bytes until they
 * either are the HTTP/2 connection preface (RFC 9113 section 3.4), or differ from it, then removes itself, hands
 * the channel to the HTTP/2 or the HTTP/1.1 pipeline and replays the bytes into it. Almost every HTTP/1.1 request
 * is told apart at its first byte (only {@code P} methods need a second, {@code PRI} a few more), so the wait costs
 * nothing in practice; a connection that stays silent is closed after the request head timeout, as a silent HTTP/1.1
 * connection is, and one that stalls inside the preface is handed to HTTP/1.1, whose guard answers it.
 */
final class PrefaceSniffer extends ChannelInboundHandlerAdapter {

    static final String NAME = "portico-preface-sniffer";
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final long timeoutMillis;
    private final Consumer<Channel> http1;
    private final Consumer<Channel> http2;
    /** What arrived so far, all of it a strict prefix of the preface. */
    private ByteBuf received;
    private ScheduledFuture<?> deadline;
    private boolean decided;

    PrefaceSniffer(long timeoutMillis, Consumer<Channel> http1, Consumer<Channel> http2) {
        this.timeoutMillis = timeoutMillis;
        this.http1 = http1;
        this.http2 = http2;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (timeoutMillis > 0) {
            deadline = ctx.executor().schedule(() -> timedOut(ctx), timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (decided || !(msg instanceof ByteBuf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ByteBuf bytes = (ByteBuf) msg;
        received = received == null ? bytes : ctx.alloc().compositeBuffer().addComponents(true, received, bytes);
        int length = Math.min(received.readableBytes(), PREFACE.length);
        for (int i = 0; i < length; i++) {
            if (received.getByte(received.readerIndex() + i) != PREFACE[i]) {
                handOver(ctx, http1);
                return;
            }
        }
        if (length == PREFACE.length) {
            handOver(ctx, http2);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // Nothing downstream yet: the pipeline the bytes are handed to gets its own read-complete with them.
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        forget();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        forget();
        ctx.close();
    }

    /**
     * Nothing arrived: closed, as a silent HTTP/1.1 connection is. The start of the preface only: read as the start
     * of an HTTP/1.1 request line, which the guard refuses or times out like any other.
     */
    private void timedOut(ChannelHandlerContext ctx) {
        if (decided) {
            return;
        }
        if (received == null || received.readableBytes() == 0) {
            forget();
            ctx.close();
        } else {
            handOver(ctx, http1);
        }
    }

    /**
     * Builds the chosen pipeline in place of this handler, then replays what was read into it: the HTTP/1.1
     * worker's connection handler has put the guard in front of the decoder by then (it runs synchronously, on
     * this loop, while the pipeline is built).
     */
    private void handOver(ChannelHandlerContext ctx, Consumer<Channel> pipeline) {
        decided = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        ByteBuf bytes = received;
        received = null;
        Channel channel = ctx.channel();
        channel.pipeline().remove(this);
        pipeline.accept(channel);
        if (channel.isActive()) {
            channel.pipeline().fireChannelRead(bytes);
            channel.pipeline().fireChannelReadComplete();
        } else {
            bytes.release();
        }
    }

    private void forget() {
        decided = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (received != null) {
            received.release();
            received = null;
        }
    }
}
