package dev.portico.dataplane;

import dev.portico.config.PorticoConfig;
import dev.portico.config.SnapshotHolder;
import dev.portico.dataplane.stage.forward.UpstreamClients;
import dev.portico.stats.RequestMetrics;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

import java.util.concurrent.TimeUnit;

/** One instance per event loop: its own listener on the shared port, its own pools and counters. */
final class DataPlaneVerticle extends AbstractVerticle {

    private final PorticoConfig.DataPlane config;
    private final int port;
    private final UpstreamClients.Settings upstreamSettings;
    private final SnapshotHolder snapshots;
    private final RequestMetrics metrics;
    private final DataPlaneState shared;
    private HttpServer server;
    private LoopState loop;

    DataPlaneVerticle(PorticoConfig.DataPlane config, int port, UpstreamClients.Settings upstreamSettings,
                      SnapshotHolder snapshots, RequestMetrics metrics, DataPlaneState shared) {
        this.config = config;
        this.port = port;
        this.upstreamSettings = upstreamSettings;
        this.snapshots = snapshots;
        this.metrics = metrics;
        this.shared = shared;
    }

    @Override
    public void start(Promise<Void> started) {
        loop = new LoopState(new UpstreamClients(vertx, upstreamSettings), shared);
        loop.adopt(snapshots.current());
        ProxyRequestHandler handler = new ProxyRequestHandler(snapshots, loop, metrics);
        HttpServerOptions options = new HttpServerOptions()
                .setHost(config.host())
                .setPort(port)
                .setIdleTimeout((int) config.idleTimeout().toMillis())
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxInitialLineLength(config.maxRequestLine())
                .setMaxHeaderSize(config.maxHeaderSize())
                .setHandle100ContinueAutomatically(false)
                // HTTP/1.1 only for now: an "Upgrade: h2c" is a hop-by-hop header to drop, not a switch.
                .setHttp2ClearTextEnabled(false)
                .setCompressionSupported(false)
                .setDecompressionSupported(false)
                .setTcpNoDelay(true)
                .setReuseAddress(true);
        server = vertx.createHttpServer(options)
                .requestHandler(handler)
                .invalidRequestHandler(handler::handleInvalid);
        server.listen().onComplete(result -> {
            if (result.succeeded()) {
                shared.register(context, loop, result.result().actualPort());
                started.complete();
            } else {
                started.fail(result.cause());
            }
        });
    }

    @Override
    public void stop(Promise<Void> stopped) {
        loop.upstreams().closeAll();
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
