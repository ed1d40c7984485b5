package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.server.offloop.DataPlaneLifecycle;
import dev.portico.proxy.server.tls.TlsTermination;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One loop's instance of the data plane serving a single TLS listener on a free loopback port, beside the data plane
 * Quarkus started: the same pipeline (snapshot, vhosts, origins), terminated as {@code tls} says. For TLS tests,
 * which need an engine and certificates of their own.
 */
public final class TlsListenerInstance implements AutoCloseable {

    private final Vertx vertx;
    private final DataPlaneVerticle instance;
    private final DataPlaneState state;
    private final DataPlaneLifecycle lifecycle;

    private TlsListenerInstance(Vertx vertx, DataPlaneVerticle instance, DataPlaneState state,
                                DataPlaneLifecycle lifecycle) {
        this.vertx = vertx;
        this.instance = instance;
        this.state = state;
        this.lifecycle = lifecycle;
    }

    /** An HTTP/1.1-only listener (ALPN offers http/1.1 alone). */
    public static TlsListenerInstance start(Vertx vertx, DataPlaneSettings settings, SnapshotHolder snapshots,
                                            StatsRegistry stats, TlsTermination tls) throws Exception {
        return start(vertx, settings, snapshots, stats,
                Listener.http1Tls("https", "127.0.0.1", freePort(), tls));
    }

    /** A listener speaking HTTP/2 beside HTTP/1.1, as the data plane's own TLS listener does. */
    public static TlsListenerInstance startWithHttp2(Vertx vertx, DataPlaneSettings settings,
                                                     SnapshotHolder snapshots, StatsRegistry stats,
                                                     TlsTermination tls) throws Exception {
        return start(vertx, settings, snapshots, stats, new Listener("https", "127.0.0.1", freePort(),
                Set.of(ListenerProtocol.HTTP_1_1, ListenerProtocol.HTTP_2), tls));
    }

    private static TlsListenerInstance start(Vertx vertx, DataPlaneSettings settings, SnapshotHolder snapshots,
                                             StatsRegistry stats, Listener listener) throws Exception {
        DataPlaneState state = new DataPlaneState();
        DataPlaneVerticle instance = new DataPlaneVerticle(new DataPlaneVerticle.Services(settings,
                List.of(listener), new UpstreamClients.Settings(4, 4),
                snapshots, stats, new RequestObserver[0], state, new ConnectionGate(0, stats.connectionRefusals())),
                0);
        DataPlaneLifecycle lifecycle = new DataPlaneLifecycle(vertx, state);
        lifecycle.deploy(instance);
        return new TlsListenerInstance(vertx, instance, state, lifecycle);
    }

    /** Starts draining as the data plane's shutdown does: stop accepting, tell the open connections. */
    public void drain() {
        state.startDraining();
        lifecycle.stopAccepting();
    }

    /**
     * A port of its own for each instance: port 0 would become Vert.x's shared random port (-8080), and a second
     * instance listening at the same time would join the first one's server, and its TLS context.
     */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    public int port() {
        return state.ports().get(0);
    }

    @Override
    public void close() throws Exception {
        vertx.undeploy(instance.deploymentID()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
