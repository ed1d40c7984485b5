package dev.portico.proxy.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.impl.TCPServerBase;

import java.lang.reflect.Field;

/**
 * Reaches the listening socket of a Vert.x server: to close only it, and to put the connection limit in front of it
 * ({@link ConnectionGate}). Graceful shutdown must stop accepting while open connections finish their requests (what
 * nginx does), but Vert.x 4's {@code HttpServer.close()} closes the accepted connections too, and it offers no other
 * way; Vert.x 5's {@code shutdown(timeout)} will replace this. Tied to Vert.x 4.5 internals: if they change, the
 * caller falls back to draining with the socket still open, and to no connection limit.
 */
@RegisterForReflection(targets = TCPServerBase.class, fields = true)
final class ListeningSocket {

    private ListeningSocket() {
    }

    /**
     * Starts closing the socket; the caller waits on the future, off the event loops.
     *
     * @return the close's future, or null when the socket cannot be reached
     */
    static ChannelFuture close(HttpServer server) {
        Channel channel = channel(server);
        return channel == null ? null : channel.close();
    }

    /** The listening socket (one for every loop's instance of a listener), or null when it cannot be reached. */
    static Channel channel(HttpServer server) {
        try {
            Field actualServer = TCPServerBase.class.getDeclaredField("actualServer");
            Field bindFuture = TCPServerBase.class.getDeclaredField("bindFuture");
            actualServer.setAccessible(true);
            bindFuture.setAccessible(true);
            Object shared = actualServer.get(server);
            @SuppressWarnings("unchecked")
            Future<Channel> bound = (Future<Channel>) bindFuture.get(shared == null ? server : shared);
            return bound == null ? null : bound.result();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
