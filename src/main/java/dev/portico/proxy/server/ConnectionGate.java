package dev.portico.proxy.server;

import dev.portico.proxy.core.counters.ReasonCounts;
import dev.portico.proxy.core.outcome.LocalReason;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code portico.dataplane.max-connections}: the client connections every listener and event loop serve together.
 * It sits in each listening socket's pipeline, before Netty hands an accepted connection to an event loop: a
 * connection over the limit is held there, accepted but not registered, so nothing of it is read (its bytes wait in
 * the kernel as they would in the backlog), and handed on when a served connection closes. While any is held the
 * listening sockets stop accepting (nginx stops accepting past {@code worker_connections} too), so at most the read
 * a listener already had under way is held per listener. Each held connection is counted as
 * {@code connection_limit} in {@code portico_local_replies_total}. One atomic step per connection, nothing per
 * request.
 */
@ChannelHandler.Sharable
final class ConnectionGate extends ChannelInboundHandlerAdapter {

    static final String NAME = "portico-connection-gate";

    /** An accepted connection waiting for a slot, with the listener it must be handed on from. */
    private record Held(ChannelHandlerContext listener, Channel connection) {
    }

    private final int max;
    private final ReasonCounts counts;
    private final AtomicInteger served = new AtomicInteger();
    private final Queue<Held> held = new ConcurrentLinkedQueue<>();
    private final Set<Channel> listening = ConcurrentHashMap.newKeySet();

    /**
     * @param max    the most connections served at once; 0 for no limit
     * @param counts where held connections are counted
     */
    ConnectionGate(int max, ReasonCounts counts) {
        this.max = max;
        this.counts = counts;
    }

    /** Puts the gate in front of a listening socket; once per socket however many loops share it. */
    void watch(Channel listeningSocket) {
        if (max > 0 && listeningSocket != null && listening.add(listeningSocket)) {
            listeningSocket.pipeline().addFirst(NAME, this);
            listeningSocket.closeFuture().addListener(closed -> letGo(listeningSocket));
        }
    }

    /**
     * A listener stopped (shutdown): its held connections go on to Vert.x uncounted, which closes them as a closing
     * server does, rather than staying open and unregistered for ever.
     */
    private void letGo(Channel listeningSocket) {
        listening.remove(listeningSocket);
        held.removeIf(waiting -> {
            if (waiting.listener().channel() != listeningSocket) {
                return false;
            }
            waiting.listener().executor().execute(() -> waiting.listener().fireChannelRead(waiting.connection()));
            return true;
        });
    }

    /** A connection the listening socket accepted: handed on within the limit, held over it. */
    @Override
    public void channelRead(ChannelHandlerContext listener, Object accepted) {
        if (!(accepted instanceof Channel connection)) {
            listener.fireChannelRead(accepted);
            return;
        }
        if (held.isEmpty() && take()) {
            serve(listener, connection);
            return;
        }
        held.add(new Held(listener, connection));
        counts.countedOffLoop(LocalReason.CONNECTION_LIMIT);
        accepting(false);
        // A slot may have freed between the look and the queueing, with nobody left to hand this one on.
        handOnHeld();
    }

    private boolean take() {
        if (served.incrementAndGet() <= max) {
            return true;
        }
        served.decrementAndGet();
        return false;
    }

    private void serve(ChannelHandlerContext listener, Channel connection) {
        connection.closeFuture().addListener(closed -> released());
        listener.fireChannelRead(connection);
    }

    private void released() {
        served.decrementAndGet();
        handOnHeld();
    }

    /** Hands held connections on while there are slots, each from its listener's loop; accepts again once none waits. */
    private void handOnHeld() {
        while (!held.isEmpty() && take()) {
            Held next = held.poll();
            if (next == null) {
                served.decrementAndGet();
                break;
            }
            next.listener().executor().execute(() -> serve(next.listener(), next.connection()));
        }
        if (held.isEmpty() && served.get() < max) {
            accepting(true);
        }
    }

    private void accepting(boolean on) {
        for (Channel socket : listening) {
            if (socket.config().isAutoRead() != on) {
                socket.config().setAutoRead(on);
            }
        }
    }
}
