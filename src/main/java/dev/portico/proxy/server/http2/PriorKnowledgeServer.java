package dev.portico.proxy.server.http2;

import io.netty.channel.Channel;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerConnectionHandler;
import io.vertx.core.http.impl.HttpServerImpl;
import io.vertx.core.http.impl.HttpServerWorker;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.SslChannelProvider;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.function.BiConsumer;

/**
 * A cleartext Vert.x HTTP server that also speaks HTTP/2 with prior knowledge (h2c, RFC 9113 section 3.3), without
 * letting a single HTTP/1.1 byte reach a decoder before the strict request guard is in front of it.
 *
 * <p>Vert.x's own h2c support cannot be used as it is: on a connection that does not start with the HTTP/2
 * preface it builds the HTTP/1 pipeline, and calls the connection handler that puts the guard in place, only
 * once its lenient decoder has read the first request (and whatever was pipelined behind it). So every accepted
 * channel meets a {@link PrefaceSniffer} first, and only then is handed, with the bytes it sent, to one of two
 * Vert.x workers of this server: one configured exactly like the HTTP/1.1-only server (its connection handler runs
 * before any byte is decoded, as without h2c), one with h2c on, which finds the preface and builds the HTTP/2
 * pipeline. Both report to the same request, invalid-request and connection handlers. The {@code Upgrade: h2c}
 * exchange is not offered: the HTTP/1.1 worker has h2c off, so the header stays a hop-by-hop field to drop.
 */
public final class PriorKnowledgeServer extends HttpServerImpl {

    private static final Logger LOG = Logger.getLogger(PriorKnowledgeServer.class);

    private final HttpServerOptions http2Options;
    private final Duration firstBytesTimeout;
    private Handler<HttpServerRequest> invalidRequests;
    private Handler<HttpConnection> connections;

    /**
     * @param http1Options the options of the HTTP/1.1 server this one stands in for (h2c off)
     * @param http2Options the same with the HTTP/2 limits; h2c is turned on in a copy
     * @param firstBytesTimeout how long a connection may stay silent, or send only the start of the preface, before
     *                          it is closed (or read as HTTP/1.1); the request head timeout, zero for none
     */
    public PriorKnowledgeServer(Vertx vertx, HttpServerOptions http1Options, HttpServerOptions http2Options,
                                Duration firstBytesTimeout) {
        super((VertxInternal) vertx, new HttpServerOptions(http1Options).setHttp2ClearTextEnabled(false));
        this.http2Options = new HttpServerOptions(http2Options).setHttp2ClearTextEnabled(true);
        this.firstBytesTimeout = firstBytesTimeout;
    }

    @Override
    public HttpServer invalidRequestHandler(Handler<HttpServerRequest> handler) {
        invalidRequests = handler;
        return super.invalidRequestHandler(handler);
    }

    @Override
    public HttpServer connectionHandler(Handler<HttpConnection> handler) {
        connections = handler;
        return super.connectionHandler(handler);
    }

    @Override
    protected BiConsumer<Channel, SslChannelProvider> childHandler(ContextInternal context, SocketAddress address,
                                                                  GlobalTrafficShapingHandler trafficShaping) {
        BiConsumer<Channel, SslChannelProvider> http1 = super.childHandler(context, address, trafficShaping);
        BiConsumer<Channel, SslChannelProvider> http2 = http2Worker(context, address, trafficShaping);
        long timeoutMillis = firstBytesTimeout.toMillis();
        return (channel, ssl) -> channel.pipeline().addLast(PrefaceSniffer.NAME, new PrefaceSniffer(
                timeoutMillis, sniffed -> http1.accept(sniffed, ssl), sniffed -> http2.accept(sniffed, ssl)));
    }

    /** A worker as Vert.x's own would be for {@link #http2Options}, reporting to the same handlers. */
    private BiConsumer<Channel, SslChannelProvider> http2Worker(ContextInternal context, SocketAddress address,
                                                               GlobalTrafficShapingHandler trafficShaping) {
        ContextInternal connectionContext = context.isEventLoopContext() ? context
                : vertx.createEventLoopContext(context.nettyEventLoop(), context.workerPool(), context.classLoader());
        String origin = "http://" + (address.isInetSocket() ? address.host() : "localhost") + ":" + address.port();
        Handler<Throwable> failures = failure -> LOG.trace("HTTP/2 connection failure", failure);
        HttpServerConnectionHandler handlers = new HttpServerConnectionHandler(this, requestHandler(),
                invalidRequests, null, null, connections, failures);
        return new HttpServerWorker(connectionContext, context::duplicate, this, vertx, http2Options, origin,
                handlers, failures, trafficShaping);
    }
}
