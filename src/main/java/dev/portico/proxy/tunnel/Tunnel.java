package dev.portico.proxy.tunnel;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.TunnelClose;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.net.NetSocket;
import org.jboss.logging.Logger;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A client connection and an upstream connection that both switched protocols (a {@code 101}), relayed to each other
 * byte for byte until one closes, like nginx's upgraded connections. Each direction holds only what its destination
 * socket has queued: when that queue is full the source is paused until it drains, so a slow reader slows its writer
 * instead of filling Portico's memory. Nothing is parsed: frames of any size, extensions and sub-protocols pass as
 * they are. The first side to close (or fail, or the idle timeout, or Portico itself) ends both, and the exchange is
 * accounted then. Confined to the event loop both connections live on.
 */
public final class Tunnel {

    /**
     * Whether a side can take more bytes, when its socket cannot say so itself (an upstream's switched HTTP client
     * connection).
     */
    public interface Writability {
        boolean full();

        /** Runs {@code drained} whenever the side can take bytes again. */
        void onDrained(Runnable drained);
    }

    private static final Logger LOG = Logger.getLogger(Tunnel.class);

    private final Exchange exchange;
    private final NetSocket client;
    private final NetSocket upstream;
    private final long idleTimeoutNanos;
    private final Runnable released;
    private final OpenTunnels registry;
    private final long openedNanos = System.nanoTime();
    private long lastActivityNanos = openedNanos;
    private long bytesFromClient;
    private long bytesToClient;
    private long idleTimer = -1;
    private boolean closed;
    /** For a WebSocket: where each direction's frames end, so Portico's own close frame can go between two. */
    private final FrameBoundary toClient;
    private final FrameBoundary toUpstream;
    private final Writability upstreamWritability;

    private Tunnel(Exchange exchange, NetSocket client, NetSocket upstream, Writability upstreamWritability,
                   long idleTimeoutMillis, Runnable released, boolean webSocket) {
        this.upstreamWritability = upstreamWritability;
        this.toClient = webSocket ? new FrameBoundary() : null;
        this.toUpstream = webSocket ? new FrameBoundary() : null;
        this.exchange = exchange;
        this.client = client;
        this.upstream = upstream;
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis);
        this.released = released;
        this.registry = OpenTunnels.of(exchange.loop());
    }

    /**
     * Starts relaying between two switched sockets of the exchange's loop, both paused.
     *
     * @param upstreamWritability how full the upstream side is (its socket's own write queue does not say)
     * @param released run once when the tunnel closes: gives back what the upstream side held (its pool)
     * @param webSocket whether the protocol switched to is WebSocket: then Portico's own closes (vhost removed,
     *                  shutdown) send each side a close frame first, where that side's framing allows
     */
    public static Tunnel start(Exchange exchange, NetSocket client, NetSocket upstream,
                               Writability upstreamWritability, long idleTimeoutMillis, Runnable released,
                               boolean webSocket) {
        Tunnel tunnel = new Tunnel(exchange, client, upstream, upstreamWritability, idleTimeoutMillis, released,
                webSocket);
        tunnel.relay(client, upstream, true);
        tunnel.relay(upstream, client, false);
        tunnel.registry.add(tunnel);
        exchange.vhost().stats().slot(exchange.loop().index()).tunnelOpened();
        tunnel.armIdleTimer(idleTimeoutMillis);
        // Both were handed over paused, so nothing that came with the 101 or right after it went unread.
        client.resume();
        upstream.resume();
        return tunnel;
    }

    /** The vhost whose routing decision opened this tunnel. */
    UUID vhostId() {
        return exchange.vhost().spec().id();
    }

    private void relay(NetSocket from, NetSocket to, boolean fromClient) {
        from.handler(buffer -> forward(buffer, from, to, fromClient));
        // Resuming an unpaused socket does nothing: one drain handler serves every pause.
        if (fromClient) {
            upstreamWritability.onDrained(from::resume);
        } else {
            to.drainHandler(v -> from.resume());
        }
        from.endHandler(v -> close(fromClient ? TunnelClose.CLIENT_CLOSED : TunnelClose.UPSTREAM_CLOSED));
        from.exceptionHandler(failure -> {
            if (failure instanceof HttpClosedException) {
                // How the upstream's socket (still an HTTP client connection to Vert.x) reports its peer's close.
                close(fromClient ? TunnelClose.CLIENT_CLOSED : TunnelClose.UPSTREAM_CLOSED);
                return;
            }
            LOG.debugf("request %s: tunnel %s side failed: %s", exchange.requestId(),
                    fromClient ? "client" : "upstream", failure);
            close(TunnelClose.ERROR);
        });
    }

    private void forward(Buffer buffer, NetSocket from, NetSocket to, boolean fromClient) {
        if (closed) {
            return;
        }
        lastActivityNanos = System.nanoTime();
        if (fromClient) {
            bytesFromClient += buffer.length();
        } else {
            bytesToClient += buffer.length();
        }
        FrameBoundary frames = fromClient ? toUpstream : toClient;
        if (frames != null) {
            frames.follow(buffer);
        }
        to.write(buffer);
        if (fromClient ? upstreamWritability.full() : to.writeQueueFull()) {
            from.pause();
        }
    }

    /**
     * One timer at a time per tunnel, re-armed for what is left of the timeout when it fires after activity: a
     * busy tunnel costs a timer per idle timeout, not per message.
     */
    private void armIdleTimer(long delayMillis) {
        Vertx vertx = exchange.loop().context().owner();
        idleTimer = vertx.setTimer(Math.max(1, delayMillis), id -> {
            idleTimer = -1;
            if (closed) {
                return;
            }
            long idle = System.nanoTime() - lastActivityNanos;
            if (idle >= idleTimeoutNanos) {
                close(TunnelClose.IDLE_TIMEOUT);
            } else {
                armIdleTimer(TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos - idle) + 1);
            }
        });
    }

    /**
     * RFC 6455's 1001 Going Away to each side standing between two frames, so a client sees why and may reconnect
     * elsewhere instead of reporting an abnormal closure (1006). A side in the middle of a frame gets none: a frame
     * cut by a close is what it would get from a plain TCP close anyway. The sockets close right after (their
     * queued writes go first), without waiting for the peers' close frames.
     */
    private void sayGoingAway() {
        if (toClient.atBoundary()) {
            client.write(FrameBoundary.goingAway(false));
        }
        if (toUpstream.atBoundary()) {
            upstream.write(FrameBoundary.goingAway(true));
        }
    }

    /**
     * Ends the tunnel, once: both sockets are closed after what they have queued is written (a close frame the peer
     * sent reaches the other side before its connection closes), and the exchange is accounted.
     */
    public void close(TunnelClose why) {
        if (closed) {
            return;
        }
        closed = true;
        if (idleTimer >= 0) {
            exchange.loop().context().owner().cancelTimer(idleTimer);
            idleTimer = -1;
        }
        registry.remove(this);
        if (toClient != null && (why == TunnelClose.VHOST_REMOVED || why == TunnelClose.SHUTDOWN)) {
            sayGoingAway();
        }
        client.close();
        upstream.close();
        long lifeNanos = System.nanoTime() - openedNanos;
        exchange.vhost().stats().slot(exchange.loop().index()).tunnelClosed(why, bytesFromClient, bytesToClient,
                lifeNanos);
        released.run();
        exchange.tunnelClosed(why, bytesFromClient, bytesToClient);
    }
}
