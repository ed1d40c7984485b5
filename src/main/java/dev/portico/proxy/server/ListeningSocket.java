package dev.portico.proxy.server;

import io.netty.channel.Channel;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.impl.TCPServerBase;

import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;

/**
 * Closes only the listening socket of a Vert.x server. Graceful shutdown must stop accepting while open
 * connections finish their requests (what nginx does), but Vert.x 4's {@code HttpServer.close()} closes the
 * accepted connections too, and it offers no other way; Vert.x 5's {@code shutdown(timeout)} will replace this.
 * Tied to Vert.x 4.5 internals: if they change, the caller falls back to draining with the socket still open.
 */
@RegisterForReflection(targets = TCPServerBase.class, fields = true)
final class ListeningSocket {

    private ListeningSocket() {
    }

    /** @return whether the socket was closed */
    static boolean close(HttpServer server) {
        try {
            Field actualServer = TCPServerBase.class.getDeclaredField("actualServer");
            Field bindFuture = TCPServerBase.class.getDeclaredField("bindFuture");
            actualServer.setAccessible(true);
            bindFuture.setAccessible(true);
            Object shared = actualServer.get(server);
            @SuppressWarnings("unchecked")
            Future<Channel> bound = (Future<Channel>) bindFuture.get(shared == null ? server : shared);
            Channel channel = bound == null ? null : bound.result();
            if (channel == null) {
                return false;
            }
            return channel.close().await(5, TimeUnit.SECONDS);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
