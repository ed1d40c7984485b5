package dev.portico.proxy.upstream.pool;

import dev.portico.proxy.tunnel.Tunnel;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Whether an upstream connection that switched protocols can take more bytes, from its channel. Vert.x's socket for
 * such a connection reports its write queue as never full and never calls its drain handler (its writes bypass the
 * HTTP stream's accounting), so a writer to it would never be held back: Netty's channel writability (its outbound
 * buffer against the write-buffer water marks) says it instead. Lives on the connection's event loop.
 */
public final class SwitchedConnection extends ChannelInboundHandlerAdapter implements Tunnel.Writability {

    private static final String NAME = "portico-switched-writability";

    private final Channel channel;
    private Runnable drained;

    private SwitchedConnection(Channel channel) {
        this.channel = channel;
    }

    /** Watches the writability of a connection that switched protocols; call once, on its loop. */
    public static SwitchedConnection of(HttpConnection connection) {
        Channel channel = ((ConnectionBase) connection).channel();
        SwitchedConnection watch = new SwitchedConnection(channel);
        channel.pipeline().addFirst(NAME, watch);
        return watch;
    }

    /** Whether the connection's outbound buffer is above its high water mark. */
    @Override
    public boolean full() {
        return !channel.isWritable();
    }

    /** Runs {@code drained} each time the connection becomes writable again. */
    @Override
    public void onDrained(Runnable drained) {
        this.drained = drained;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        Runnable told = drained;
        if (told != null && ctx.channel().isWritable()) {
            told.run();
        }
        super.channelWritabilityChanged(ctx);
    }
}
