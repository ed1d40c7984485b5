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
import java.util.concurrent.TimeUnit;

/**
 * One loop's instance of the data plane serving a single TLS listener on a free loopback port, beside the data plane
 * Quarkus started: the same pipeline (snapshot, vhosts, origins), terminated as {@code tls} says. For TLS tests,
 * which need an engine and certificates of their own.
 */
public final class TlsListenerInstance implements AutoCloseable {

    private final Vertx vertx;
    private final DataPlaneVerticle instance;
    private final int port;

    private TlsListenerInstance(Vertx vertx, DataPlaneVerticle instance, int port) {
        this.vertx = vertx;
        this.instance = instance;
        this.port = port;
    }

    public static TlsListenerInstance start(Vertx vertx, DataPlaneSettings settings, SnapshotHolder snapshots,
                                            StatsRegistry stats, TlsTermination tls) throws Exception {
        DataPlaneState state = new DataPlaneState();
        DataPlaneVerticle instance = new DataPlaneVerticle(new DataPlaneVerticle.Services(settings,
                List.of(Listener.http1Tls("https", "127.0.0.1", freePort(), tls)), new UpstreamClients.Settings(4, 4),
                snapshots, stats, new RequestObserver[0], state), 0);
        new DataPlaneLifecycle(vertx, state).deploy(instance);
        return new TlsListenerInstance(vertx, instance, state.ports().get(0));
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
        return port;
    }

    @Override
    public void close() throws Exception {
        vertx.undeploy(instance.deploymentID()).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
