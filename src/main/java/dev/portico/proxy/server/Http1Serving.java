package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.server.http1.ClientHalfClosed;
import dev.portico.proxy.server.http1.GuardedConnections;
import dev.portico.proxy.server.http1.RequestGuard;
import dev.portico.proxy.server.http1.RequestRefused;
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

import java.util.concurrent.TimeUnit;

/**
 * Serves an HTTP/1.1 listener, cleartext or over TLS, on one loop: Vert.x's HTTP/1 server with the strict request guard
 * ({@link GuardedConnections}) in front of its decoder on every connection, each exchange paired with its
 * connection's {@link RequestGuard}, and the requests the guard or the decoder refused answered here. TLS sits below
 * all of it (the SSL handler comes first in the pipeline), so the guard reads decrypted bytes the same way.
 */
final class Http1Serving implements ListenerServing {

    private final Listener listener;
    private final DataPlaneSettings settings;
    private final ProxyRequestHandler requests;
    private final GuardedConnections connections;
    private final ListenerCertificates certificates;

    Http1Serving(Listener listener, DataPlaneSettings settings, ProxyRequestHandler requests,
                 ListenerCertificates certificates) {
        this.listener = listener;
        this.certificates = certificates;
        this.settings = settings;
        this.requests = requests;
        this.connections = new GuardedConnections(settings.maxRequestLine(), settings.maxHeaderSize(),
                settings.clientHeaderTimeout());
    }

    @Override
    public HttpServer start(Vertx vertx, int bindPort, Handler<HttpConnection> accepted) {
        HttpServerOptions options = options(bindPort);
        connections.start(vertx);
        HttpServer server = vertx.createHttpServer(options);
        if (certificates != null) {
            certificates.bind(server);
        }
        return server
                .requestHandler(this::request)
                .invalidRequestHandler(this::invalidRequest)
                .connectionHandler(connection -> {
                    accepted.handle(connection);
                    connections.guard(connection, options);
                });
    }

    @Override
    public void stop(Vertx vertx) {
        connections.stop(vertx);
    }

    private HttpServerOptions options(int bindPort) {
        HttpServerOptions options = cleartextOptions(bindPort);
        return listener.tls() == null ? options : listener.tls().applyTo(options, certificates.presented());
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
                // HTTP/1.1 only: an "Upgrade: h2c" is a hop-by-hop header to drop, not a switch.
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

    /** A request the guard passed and the decoder read: paired with its connection, then routed. */
    private void request(HttpServerRequest request) {
        RoutingSnapshot snapshot = requests.snapshot();
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
