package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.server.http1.GuardedConnections;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

import java.util.concurrent.TimeUnit;

/** One instance per event loop: its own listener on the shared port, its own pools and counters. */
final class DataPlaneVerticle extends AbstractVerticle {

    /** What every listener instance shares; built once by {@link DataPlaneServer}. */
    record Services(DataPlaneSettings config, int port, UpstreamClients.Settings upstream,
                    SnapshotHolder snapshots, StatsRegistry stats, RequestObserver[] observers,
                    DataPlaneState shared) {
    }

    static final long OBSERVER_FLUSH_MILLIS = 200;
    /**
     * Threads for static-file lookups, shared by every loop (nginx's {@code aio threads} pool has 32): enough for
     * a slow disk to be waited on in parallel, few enough that a flood of misses cannot exhaust the JVM.
     */
    static final int FILE_WORKERS = 16;

    private final Services services;
    private final int index;
    private HttpServer server;
    private LoopState loop;
    private GuardedConnections connections;
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
                vertx.createSharedWorkerExecutor("portico-files", FILE_WORKERS), config.clientBodyTimeout().toMillis());
        loop.put(UpstreamClients.PER_LOOP, upstreams);
        SnapshotAdoption adoption = new SnapshotAdoption(upstreams);
        loop.put(SnapshotAdoption.PER_LOOP, adoption);
        adoption.adopt(services.snapshots().current());
        ProxyRequestHandler handler = new ProxyRequestHandler(services.snapshots(), loop, adoption, services.stats(),
                services.observers());
        HttpServerOptions options = new HttpServerOptions()
                .setHost(config.host())
                .setPort(services.port())
                .setIdleTimeout((int) config.idleTimeout().toMillis())
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxInitialLineLength(config.maxRequestLine())
                .setMaxHeaderSize(config.maxHeaderSize())
                .setMaxChunkSize(UpstreamClients.BODY_CHUNK_SIZE)
                .setHandle100ContinueAutomatically(false)
                // HTTP/1.1 only for now: an "Upgrade: h2c" is a hop-by-hop header to drop, not a switch.
                .setHttp2ClearTextEnabled(false)
                .setCompressionSupported(false)
                .setDecompressionSupported(false)
                // Portico does not terminate WebSockets, so no handshake extensions to negotiate: without these
                // Vert.x adds a pipeline handler that inspects every request and response for an upgrade.
                .setPerMessageWebSocketCompressionSupported(false)
                .setPerFrameWebSocketCompressionSupported(false)
                .setTcpNoDelay(true)
                .setReuseAddress(true);
        connections = new GuardedConnections(config.maxRequestLine(), config.maxHeaderSize(),
                config.clientHeaderTimeout());
        connections.start(vertx);
        server = vertx.createHttpServer(options)
                .requestHandler(handler)
                .invalidRequestHandler(handler::handleInvalid)
                .connectionHandler(connection -> {
                    services.stats().connections().opened(index);
                    connection.closeHandler(v -> services.stats().connections().closed(index));
                    connections.guard(connection, options);
                });
        if (services.observers().length > 0) {
            flushTimer = vertx.setPeriodic(OBSERVER_FLUSH_MILLIS, id -> flushObservers());
        }
        server.listen().onComplete(result -> {
            if (result.succeeded()) {
                services.shared().register(context, loop, result.result().actualPort());
                started.complete();
            } else {
                started.fail(result.cause());
            }
        });
    }

    /** Runs on this loop: lets every observer push out what this loop batched. */
    void flushObservers() {
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
        if (connections != null) {
            connections.stop(vertx);
        }
        if (server == null) {
            stopped.complete();
        } else {
            server.close().onComplete(ignored -> stopped.complete());
        }
    }

    /**
     * Stops accepting new connections while open ones keep being served.
     *
     * @return false when the listening socket could not be closed on its own (it then stays open until stop)
     */
    boolean stopAccepting() {
        return server == null || ListeningSocket.close(server);
    }
}
