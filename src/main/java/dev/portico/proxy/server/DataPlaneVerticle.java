package dev.portico.proxy.server;

import dev.portico.proxy.core.RoutedExchanges;

import dev.portico.proxy.core.counters.ReasonCounts;
import dev.portico.proxy.server.http2.HeldBackTails;
import dev.portico.proxy.server.http2.Http2ConnectionErrors;
import dev.portico.proxy.server.http2.Http2Connections;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.core.outcome.TunnelClose;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.server.offloop.DataPlaneLifecycle;
import dev.portico.proxy.server.tls.HandshakeResumption;
import dev.portico.proxy.tunnel.OpenTunnels;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.impl.ConnectionBase;

import java.util.ArrayList;
import java.util.List;

/**
 * One instance per event loop: its own server for every listener (each listener's instances share its port), its own
 * pools and counters.
 */
final class DataPlaneVerticle extends AbstractVerticle implements DataPlaneLifecycle.LoopInstance {

    /** What every instance shares; built once by {@link DataPlaneServer}. */
    record Services(DataPlaneSettings config, List<Listener> listeners, UpstreamClients.Settings upstream,
                    SnapshotHolder snapshots, StatsRegistry stats, RequestObserver[] observers,
                    DataPlaneState shared, ConnectionGate connections) {
    }

    static final long OBSERVER_FLUSH_MILLIS = 200;
    /**
     * Threads for static-file lookups, shared by every loop (nginx's {@code aio threads} pool has 32): enough for
     * a slow disk to be waited on in parallel, few enough that a flood of misses cannot exhaust the JVM.
     */
    static final int FILE_WORKERS = 16;
    /**
     * Port 0 means "any free port". A negative port makes Vert.x bind one random port shared by every server
     * listening with that same negative number; Quarkus' own servers use -1, so the listeners count down from a
     * number of our own, one each.
     */
    private static final int RANDOM_SHARED_PORT = -8080;

    private final Services services;
    private final int index;
    private final List<HttpServer> servers = new ArrayList<>();
    private final List<ListenerServing> servings = new ArrayList<>();
    private LoopState loop;
    private Http2Connections http2;
    private long flushTimer = -1;

    DataPlaneVerticle(Services services, int index) {
        this.services = services;
        this.index = index;
    }

    @Override
    public void start(Promise<Void> started) {
        DataPlaneSettings config = services.config();
        // A shared executor is pooled by name, and closed with the verticle that asked for it.
        UpstreamClients upstreams = new UpstreamClients(context, services.upstream());
        loop = new LoopState(index, services.shared(), context,
                vertx.createSharedWorkerExecutor("portico-files", FILE_WORKERS), config.clientBodyTimeout().toMillis(),
                config.clientSendTimeout().toMillis());
        loop.put(UpstreamClients.PER_LOOP, upstreams);
        RoutedExchanges routed = new RoutedExchanges();
        loop.put(RoutedExchanges.PER_LOOP, routed);
        SnapshotAdoption adoption = new SnapshotAdoption(upstreams, routed, OpenTunnels.of(loop), vertx,
                config.shutdownGrace().toMillis());
        loop.put(SnapshotAdoption.PER_LOOP, adoption);
        adoption.adopt(services.snapshots().current());
        ProxyRequestHandler requests = new ProxyRequestHandler(services.snapshots(), loop, adoption,
                services.stats(), services.observers(), config.maxInFlight());
        ReasonCounts refusals = services.stats().connectionRefusals();
        http2 = new Http2Connections(new Http2ConnectionErrors(refusals, index),
                new HeldBackTails(config.clientSendTimeout().toMillis(), refusals, index));
        List<Future<HttpServer>> listening = new ArrayList<>();
        List<Listener> listeners = services.listeners();
        for (int i = 0; i < listeners.size(); i++) {
            Listener listener = listeners.get(i);
            if (listener.tls() != null) {
                // Before the server's first context reads it; each publish swaps in more (DataPlaneServer).
                listener.tls().presentFrom(services.snapshots().current());
            }
            ListenerServing serving = ListenerServing.of(listener, config, requests, http2);
            servings.add(serving);
            int bindPort = listener.port() == 0 ? RANDOM_SHARED_PORT - i : listener.port();
            boolean tls = listener.tls() != null;
            HttpServer server = serving.start(vertx, bindPort, connection -> {
                services.stats().connections().opened(index);
                countClose(connection);
                if (tls) {
                    services.stats().handshakes().completed(index, HandshakeResumption.of(connection));
                }
            });
            servers.add(server);
            listening.add(server.listen());
        }
        if (services.observers().length > 0) {
            flushTimer = vertx.setPeriodic(OBSERVER_FLUSH_MILLIS, id -> flushObservers());
        }
        Future.all(listening).onComplete(result -> {
            if (result.succeeded()) {
                for (HttpServer server : servers) {
                    services.connections().watch(ListeningSocket.channel(server));
                }
                List<Integer> ports = new ArrayList<>();
                int tlsPort = -1;
                for (int i = 0; i < servers.size(); i++) {
                    ports.add(servers.get(i).actualPort());
                    if (tlsPort < 0 && listeners.get(i).tls() != null) {
                        tlsPort = servers.get(i).actualPort();
                    }
                }
                services.shared().register(context, loop, ports, tlsPort);
                started.complete();
            } else {
                started.fail(result.cause());
            }
        });
    }

    /** The listening sockets of this instance's servers (shared with the other loops' instances); for tests. */
    List<Channel> listeningSockets() {
        List<Channel> sockets = new ArrayList<>();
        for (HttpServer server : servers) {
            sockets.add(ListeningSocket.channel(server));
        }
        return sockets;
    }

    /**
     * Counts the connection's close when its channel closes: a connection that switched protocols (a WebSocket
     * tunnel) is no longer Vert.x's HTTP connection, whose close handler would then never run.
     */
    private void countClose(HttpConnection connection) {
        if (connection instanceof ConnectionBase base) {
            base.channel().closeFuture().addListener(closed -> services.stats().connections().closed(index));
        } else {
            connection.closeHandler(v -> services.stats().connections().closed(index));
        }
    }

    @Override
    public void closeTunnels() {
        OpenTunnels.of(loop).closeAll(TunnelClose.SHUTDOWN);
    }

    @Override
    public void flushObservers() {
        for (RequestObserver observer : services.observers()) {
            try {
                observer.flush(index);
            } catch (RuntimeException e) {
                loop.logInternalError(null, e);
            }
        }
    }

    @Override
    public void stop(Promise<Void> stopped) {
        if (flushTimer >= 0) {
            vertx.cancelTimer(flushTimer);
        }
        UpstreamClients.of(loop).closeAll();
        for (ListenerServing serving : servings) {
            serving.stop(vertx);
        }
        List<Future<Void>> closed = new ArrayList<>();
        for (HttpServer server : servers) {
            closed.add(server.close());
        }
        Future.join(closed).onComplete(ignored -> stopped.complete());
    }

    @Override
    public void announceDrain() {
        context.runOnContext(v -> http2.goAwayAll());
    }

    @Override
    public List<ChannelFuture> stopAccepting() {
        List<ChannelFuture> closing = new ArrayList<>();
        for (HttpServer server : servers) {
            closing.add(ListeningSocket.close(server));
        }
        return closing;
    }
}
