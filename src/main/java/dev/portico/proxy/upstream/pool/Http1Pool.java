package dev.portico.proxy.upstream.pool;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.ScheduledFuture;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

/**
 * Portico's own keep-alive pool of cleartext HTTP/1.1 connections to one origin on one event loop, with the limits
 * of the Vert.x pool it is to replace on the forwarding path: at most {@code maxConnections} open (or being opened),
 * at most {@code maxPending} requests waiting for one, each for at most its queue timeout, a TCP connect timeout, and
 * idle connections closed after the keep-alive timeout. The most recently used idle connection is reused first, so
 * the rest age out when traffic falls. Created and used on its event loop only; not thread-safe.
 */
public final class Http1Pool {

    /** Gets a connection, or why there is none, on the pool's event loop. */
    public interface Acquirer {
        void acquired(Http1Connection connection);

        /** A {@link PoolRejection} (queue full or timed out), or the failure to connect. */
        void failed(Throwable cause);
    }

    /**
     * @param maxConnections     connections open or being opened at once
     * @param maxPending         requests that may wait while the pool is at its size
     * @param connectTimeoutMillis the TCP connect timeout
     * @param keepAliveMillis    how long a connection may stay idle in the pool
     * @param decoder            the response decoder's limits
     */
    public record Settings(int maxConnections, int maxPending, int connectTimeoutMillis, long keepAliveMillis,
                           HttpDecoderConfig decoder) {
    }

    private final EventLoop loop;
    private final SocketAddress remote;
    private final Settings settings;
    private final long keepAliveNanos;
    private final Bootstrap bootstrap;
    /** Idle connections, the most recently used last. */
    private final ArrayDeque<Http1Connection> idle = new ArrayDeque<>();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** Connections open or being opened. */
    private int open;
    private ScheduledFuture<?> sweep;
    private boolean closed;

    /**
     * @param remote   the origin's address; an unresolved one is resolved by {@code resolver} without blocking
     * @param channels makes the event loop's kind of socket channel (epoll or NIO)
     */
    public Http1Pool(EventLoop loop, ChannelFactory<? extends Channel> channels,
                     AddressResolverGroup<InetSocketAddress> resolver, SocketAddress remote, Settings settings) {
        this.loop = loop;
        this.remote = remote;
        this.settings = settings;
        this.keepAliveNanos = TimeUnit.MILLISECONDS.toNanos(settings.keepAliveMillis());
        this.bootstrap = new Bootstrap()
                .group(loop)
                .channelFactory(channels)
                .resolver(resolver)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.connectTimeoutMillis())
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        UpstreamCodec codec = UpstreamCodec.create(settings.decoder());
                        channel.pipeline().addLast(UpstreamCodec.NAME, codec);
                        channel.pipeline().addLast(Http1Connection.HANDLER_NAME,
                                new Http1Connection(channel, Http1Pool.this, codec));
                    }
                });
    }

    /**
     * A connection for one exchange: an idle one at once, a new one when the pool has room, else after waiting for
     * one to come back (at most {@code queueTimeoutMillis}; refused at once when {@code maxPending} already wait).
     */
    public void acquire(long queueTimeoutMillis, Acquirer acquirer) {
        if (closed) {
            acquirer.failed(PoolRejection.poolClosed());
            return;
        }
        long now = System.nanoTime();
        Http1Connection connection;
        while ((connection = idle.pollLast()) != null) {
            if (connection.channel().isActive() && !expired(connection, now)) {
                acquirer.acquired(connection);
                return;
            }
            connection.channel().close();
        }
        if (open < settings.maxConnections()) {
            connect(acquirer);
            return;
        }
        if (waiters.size() >= settings.maxPending()) {
            acquirer.failed(PoolRejection.queueFull(settings.maxPending()));
            return;
        }
        Waiter waiter = new Waiter(acquirer);
        waiter.timer = loop.schedule(() -> {
            if (waiters.remove(waiter)) {
                acquirer.failed(PoolRejection.queueTimedOut(queueTimeoutMillis));
            }
        }, queueTimeoutMillis, TimeUnit.MILLISECONDS);
        waiters.add(waiter);
    }

    /** Connections open or being opened. */
    public int open() {
        return open;
    }

    /** Connections idle in the pool. */
    public int idle() {
        return idle.size();
    }

    /** Closes the idle connections and refuses new requests; connections in use close when their exchange ends. */
    public void close() {
        closed = true;
        // A copy: each close takes its connection out of the idle list.
        for (Http1Connection connection : idle.toArray(new Http1Connection[0])) {
            connection.channel().close();
        }
        idle.clear();
        for (Waiter waiter : waiters) {
            waiter.timer.cancel(false);
            waiter.acquirer.failed(PoolRejection.poolClosed());
        }
        waiters.clear();
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    private void connect(Acquirer acquirer) {
        open++;
        ChannelFuture connecting = bootstrap.connect(remote);
        // Counted down once: by the close, or by the failure when the socket could not even be made (its channel
        // then never closes, and its listeners run off this loop).
        boolean[] counted = {true};
        Runnable gone = () -> {
            if (counted[0]) {
                counted[0] = false;
                closed(connecting.channel());
            }
        };
        connecting.channel().closeFuture().addListener(future -> onLoop(gone));
        connecting.addListener(future -> onLoop(() -> {
            if (future.isSuccess()) {
                Http1Connection connection = connecting.channel().pipeline().get(Http1Connection.class);
                if (closed) {
                    // The pool closed while connecting: not needed any more.
                    connecting.channel().close();
                    acquirer.failed(PoolRejection.poolClosed());
                } else {
                    acquirer.acquired(connection);
                }
            } else {
                acquirer.failed(future.cause());
                gone.run();
            }
        }));
    }

    private void onLoop(Runnable action) {
        if (loop.inEventLoop()) {
            action.run();
        } else {
            loop.execute(action);
        }
    }

    /** A connection closed: its place is free for a waiting request. */
    private void closed(Channel channel) {
        open--;
        for (Iterator<Http1Connection> it = idle.iterator(); it.hasNext(); ) {
            if (it.next().channel() == channel) {
                it.remove();
                break;
            }
        }
        Waiter next;
        if (!closed && open < settings.maxConnections() && (next = waiters.poll()) != null) {
            next.timer.cancel(false);
            connect(next.acquirer);
        }
    }

    /** An exchange ended and its connection can carry another: to the next waiting request, or idle. */
    void recycle(Http1Connection connection) {
        if (closed) {
            connection.channel().close();
            return;
        }
        Waiter next = waiters.poll();
        if (next != null) {
            next.timer.cancel(false);
            next.acquirer.acquired(connection);
            return;
        }
        connection.idleSince = System.nanoTime();
        idle.addLast(connection);
        if (sweep == null) {
            long period = Math.max(1000, settings.keepAliveMillis() / 2);
            sweep = loop.scheduleAtFixedRate(this::closeExpired, period, period, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Idle past the pool's keep-alive timeout, or past the origin's own ({@code Keep-Alive: timeout}, as Vert.x's
     * client honours it) less a second, so Portico lets go before an origin such as Apache (5 s) closes it under a
     * request.
     */
    private boolean expired(Http1Connection connection, long now) {
        long limit = keepAliveNanos;
        if (connection.originKeepAliveNanos > 0) {
            limit = Math.min(limit, Math.max(0, connection.originKeepAliveNanos - TimeUnit.SECONDS.toNanos(1)));
        }
        return now - connection.idleSince > limit;
    }

    /** Closes the connections idle for longer than their keep-alive timeout. */
    private void closeExpired() {
        long now = System.nanoTime();
        for (Http1Connection connection : idle.toArray(new Http1Connection[0])) {
            if (expired(connection, now)) {
                idle.remove(connection);
                connection.channel().close();
            }
        }
    }

    /** A request waiting for a connection, with its queue timeout. */
    private static final class Waiter {
        final Acquirer acquirer;
        ScheduledFuture<?> timer;

        Waiter(Acquirer acquirer) {
            this.acquirer = acquirer;
        }
    }
}
