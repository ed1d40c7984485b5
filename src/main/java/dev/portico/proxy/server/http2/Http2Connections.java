package dev.portico.proxy.server.http2;

import dev.portico.proxy.core.ClientTls;
import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.server.keepalive.KeepAliveTimeout;
import dev.portico.proxy.server.tls.HandshakeFacts;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.impl.Http2ServerConnection;
import io.vertx.core.net.impl.ConnectionBase;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.util.AttributeKey;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/2 side of one listener on one loop: the limits every connection gets (in its SETTINGS and in the
 * decoder's flood guards), and each connection's TLS facts, read once, for its streams' {@link Http2ClientStream}.
 */
public final class Http2Connections {

    /** A connection's handshake facts ride on its channel, and go with it. */
    private static final AttributeKey<ClientTls> HANDSHAKE = AttributeKey.valueOf("portico.h2.handshake");

    private final Http2ConnectionErrors errors;
    private final HeldBackTails tails;
    /** This loop's open HTTP/2 connections, for the GOAWAY a drain sends. */
    private final Set<HttpConnection> open = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Set once the data plane drains: a connection that arrives now is told at once. */
    private boolean draining;

    public Http2Connections(Http2ConnectionErrors errors, HeldBackTails tails) {
        this.errors = errors;
        this.tails = tails;
    }

    /** Makes {@code options} (a TLS server's) offer h2 then http/1.1 by ALPN, with {@link #limitsOn the limits}. */
    public static HttpServerOptions applyTo(HttpServerOptions options, DataPlaneSettings settings) {
        return limitsOn(options, settings).setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1));
    }

    /**
     * Gives the HTTP/2 connections of a server with {@code options} the limits of {@code settings}: concurrent
     * streams, initial window, header list size ({@code max-header-size}, as for HTTP/1: it also bounds what an
     * HPACK-compressed block may expand to), resets per window (rapid reset) and small CONTINUATION frames.
     */
    public static HttpServerOptions limitsOn(HttpServerOptions options, DataPlaneSettings settings) {
        DataPlaneSettings.Http2 http2 = settings.http2();
        return options.setInitialSettings(new Http2Settings()
                        .setMaxConcurrentStreams(http2.maxConcurrentStreams())
                        .setInitialWindowSize(http2.initialWindowSize())
                        .setMaxHeaderListSize(settings.maxHeaderSize())
                        // Portico never pushes.
                        .setPushEnabled(false))
                .setHttp2RstFloodMaxRstFramePerWindow(http2.maxResetsPerWindow())
                .setHttp2RstFloodWindowDuration((int) Math.max(1, http2.resetWindow().toSeconds()))
                .setHttp2RstFloodWindowDurationTimeUnit(TimeUnit.SECONDS)
                .setHttp2MaxSmallContinuationFrames(http2.maxSmallContinuationFrames());
    }

    /** Whether {@code connection} speaks HTTP/2 (ALPN chose h2, or a cleartext client sent the preface). */
    public static boolean isHttp2(HttpConnection connection) {
        return connection instanceof Http2ServerConnection;
    }

    /**
     * A new HTTP/2 connection: reads its handshake once, watches it for the floods it may be closed for, and makes
     * its idle timeout a keep-alive timeout ({@code options} are its server's).
     */
    public void accepted(HttpConnection connection, HttpServerOptions options) {
        Channel channel = channelOf(connection);
        if (connection.isSsl()) {
            channel.attr(HANDSHAKE).set(HandshakeFacts.of(connection.sslSession()));
        }
        // The idle timeout as a keep-alive timeout: not while a stream is open (nginx's keepalive_timeout on HTTP/2).
        Http2ConnectionHandler handler = channel.pipeline().get(Http2ConnectionHandler.class);
        if (handler != null) {
            KeepAliveTimeout.replaceIn(channel.pipeline(), options, () -> answeringOnly(handler));
        }
        errors.watch(connection);
        if (draining) {
            connection.shutdown(1, TimeUnit.HOURS);
            return;
        }
        open.add(connection);
        channelOf(connection).closeFuture().addListener(closed -> open.remove(connection));
    }

    /**
     * Whether streams are open and none has data held back by flow control: a client that keeps its windows shut
     * is not reading, and its connection may be idle like one that sends nothing.
     */
    private static boolean answeringOnly(Http2ConnectionHandler handler) {
        Http2Connection connection = handler.connection();
        if (connection.numActiveStreams() == 0) {
            return false;
        }
        Http2RemoteFlowController flow = handler.encoder().flowController();
        try {
            // The visit stops at, and returns, the first stream with data held back.
            return connection.forEachActiveStream(stream -> !flow.hasFlowControlled(stream)) == null;
        } catch (Http2Exception e) {
            return false;
        }
    }

    /**
     * GOAWAY to every open connection: clients open no new stream here, the streams in flight run to their end
     * and then each connection closes (the data plane's shutdown grace bounds the wait: it closes what is left).
     */
    public void goAwayAll() {
        draining = true;
        for (HttpConnection connection : List.copyOf(open)) {
            connection.shutdown(1, TimeUnit.HOURS);
        }
    }

    /** The client side of one request's stream. */
    public Http2ClientStream streamOf(HttpServerRequest request) {
        return new Http2ClientStream(request, channelOf(request.connection()).attr(HANDSHAKE).get(), tails);
    }

    private static Channel channelOf(HttpConnection connection) {
        return ((ConnectionBase) connection).channel();
    }
}
