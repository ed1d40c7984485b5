package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.server.http1.ClientHalfClosed;
import dev.portico.proxy.server.http1.GuardedConnections;
import dev.portico.proxy.server.http1.RequestGuard;
import dev.portico.proxy.server.http1.RequestRefused;
import dev.portico.proxy.server.http2.Http2Connections;
import dev.portico.proxy.server.http2.PriorKnowledgeServer;
import dev.portico.proxy.server.tls.HandshakeFacts;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Serves a listener, cleartext or over TLS, on one loop: Vert.x's HTTP server with the strict request guard
 * ({@link GuardedConnections}) in front of its decoder on every connection, each exchange paired with its
 * connection's {@link RequestGuard}, and the requests the guard or the decoder refused answered here. TLS sits below
 * all of it (the SSL handler comes first in the pipeline), so the guard reads decrypted bytes the same way.
 */
final class HttpServing implements ListenerServing {

    private final Listener listener;
    private final DataPlaneSettings settings;
    private final ProxyRequestHandler requests;
    private final GuardedConnections connections;
    private final Http2Connections http2;

    HttpServing(Listener listener, DataPlaneSettings settings, ProxyRequestHandler requests,
                Http2Connections http2) {
        this.listener = listener;
        this.http2 = http2;
        this.settings = settings;
        this.requests = requests;
        this.connections = new GuardedConnections(settings.maxRequestLine(), settings.maxHeaderSize(),
                settings.clientHeaderTimeout());
    }

    @Override
    public HttpServer start(Vertx vertx, int bindPort, Handler<HttpConnection> accepted) {
        HttpServerOptions options = options(bindPort);
        connections.start(vertx);
        return server(vertx, options, bindPort)
                .requestHandler(this::request)
                .invalidRequestHandler(this::invalidRequest)
                .connectionHandler(connection -> {
                    accepted.handle(connection);
                    if (Http2Connections.isHttp2(connection)) {
                        http2.accepted(connection, options);
                    } else {
                        connections.guard(connection, options);
                    }
                });
    }

    /** Vert.x's server, or in cleartext with h2c on the one that tells prior-knowledge HTTP/2 clients apart. */
    private HttpServer server(Vertx vertx, HttpServerOptions options, int bindPort) {
        if (listener.tls() != null || !listener.http2()) {
            return vertx.createHttpServer(options);
        }
        HttpServerOptions http2 = Http2Connections.limitsOn(cleartextOptions(bindPort), settings);
        // A silent new connection is closed when an HTTP/1.1 one would be: after the head timeout, or when that is
        // off after the idle timeout (the sniffer reads before Vert.x's idle handler is in place).
        Duration silence = settings.clientHeaderTimeout().isZero() ? settings.idleTimeout()
                : settings.clientHeaderTimeout();
        return new PriorKnowledgeServer(vertx, options, http2, silence);
    }

    @Override
    public void stop(Vertx vertx) {
        connections.stop(vertx);
    }

    private HttpServerOptions options(int bindPort) {
        HttpServerOptions options = cleartextOptions(bindPort);
        if (listener.tls() == null) {
            return options;
        }
        listener.tls().applyTo(options, listener.tls().presenting());
        // ALPN offers what the listener speaks, h2 first: the server's preference decides (RFC 7301 section 3.2).
        return listener.http2() ? Http2Connections.applyTo(options, settings)
                : options.setAlpnVersions(List.of(HttpVersion.HTTP_1_1));
    }

    private HttpServerOptions cleartextOptions(int bindPort) {
        return new HttpServerOptions()
                .setHost(listener.host())
                .setPort(bindPort)
                .setIdleTimeout((int) settings.idleTimeout().toMillis())
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
                .setMaxInitialLineLength(settings.maxRequestLine())
                .setMaxHeaderSize(settings.maxHeaderSize())
                .setMaxChunkSize(UpstreamClients.BODY_CHUNK_SIZE)
                .setHandle100ContinueAutomatically(false)
                // Vert.x's h2c would build a cleartext connection's HTTP/1 pipeline after reading its first
                // request, before the strict guard could be put in front of it: prior-knowledge h2c, when a listener
                // speaks it, is PriorKnowledgeServer's. An "Upgrade: h2c" is a hop-by-hop header to drop, not a switch.
                .setHttp2ClearTextEnabled(false)
                .setCompressionSupported(false)
                .setDecompressionSupported(false)
                // Portico does not terminate WebSockets, so no handshake extensions to negotiate: without these
                // Vert.x adds a pipeline handler that inspects every request and response for an upgrade.
                .setPerMessageWebSocketCompressionSupported(false)
                .setPerFrameWebSocketCompressionSupported(false)
                .setTcpNoDelay(true)
                .setReuseAddress(true);
    }

    /**
     * A request the guard passed and the decoder read, or a stream of an HTTP/2 connection: paired with its
     * connection, then routed.
     */
    private void request(HttpServerRequest request) {
        RoutingSnapshot snapshot = requests.snapshot();
        if (request.version() == HttpVersion.HTTP_2) {
            Exchange exchange = requests.open(request, snapshot);
            exchange.connection(http2.streamOf(request));
            requests.route(exchange, snapshot);
            return;
        }
        Exchange exchange = open(request, snapshot);
        if (exchange != null) {
            requests.route(exchange, snapshot);
        }
    }

    /**
     * Requests the strict HTTP/1.1 reader or the HTTP decoder refused: answered with the status the failure calls
     * for, then closed. The marker a client's half-close leaves behind only closes the connection: every response
     * before it has been written.
     */
    private void invalidRequest(HttpServerRequest request) {
        DecoderResult result = request.decoderResult();
        Throwable cause = result == null ? null : result.cause();
        if (cause instanceof ClientHalfClosed) {
            request.connection().close();
            return;
        }
        RoutingSnapshot snapshot = requests.snapshot();
        Exchange exchange = open(request, snapshot);
        if (exchange == null) {
            return;
        }
        exchange.unroutedStages(snapshot.fallbackStages());
        if (cause instanceof RequestRefused) {
            RequestRefused refused = (RequestRefused) cause;
            exchange.replyLocal(refused.reason(), refused.detail(), true);
            return;
        }
        LocalReason reason = cause instanceof TooLongHttpLineException ? LocalReason.URI_TOO_LONG
                : cause instanceof TooLongHttpHeaderException ? LocalReason.HEADERS_TOO_LARGE
                : LocalReason.BAD_REQUEST;
        exchange.replyLocal(reason, reason == LocalReason.BAD_REQUEST ? "The request is not valid HTTP/1.1"
                : reason.title(), true);
    }

    /**
     * Opens the exchange of a request and pairs it with its connection's guard. Null when the request is answered
     * at once: its body broke its framing while it waited behind an earlier response. A connection without a guard
     * (none today: every HTTP/1 connection gets one) leaves the exchange without a {@code ClientConnection}.
     */
    private Exchange open(HttpServerRequest request, RoutingSnapshot snapshot) {
        Exchange exchange = requests.open(request, snapshot);
        RequestGuard guard = RequestGuard.of(request);
        if (guard != null) {
            if (listener.tls() != null && guard.tls() == null) {
                // Once per connection: the handshake is over before its first request is read.
                guard.tls(HandshakeFacts.of(request.connection().sslSession()));
            }
            exchange.connection(guard);
            RequestRefused brokenBody = guard.opened(exchange);
            if (brokenBody != null) {
                exchange.unroutedStages(snapshot.fallbackStages());
                exchange.replyLocal(brokenBody.reason(), brokenBody.detail(), true);
                return null;
            }
        }
        return exchange;
    }
}
