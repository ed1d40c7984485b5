package dev.portico.proxy.server;

import dev.portico.proxy.server.http2.Http2Connections;

import dev.portico.proxy.core.DataPlaneSettings;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;

/**
 * How one event loop serves one {@link Listener}: the protocol-specific half of accepting clients (the server options
 * Vert.x needs, what every accepted connection is fitted with, the requests the protocol's reader refused). What
 * follows a well-formed request is the same pipeline for every listener ({@link ProxyRequestHandler}). One instance
 * per listener and loop, confined to that loop.
 */
interface ListenerServing {

    /**
     * The serving of {@code listener}'s protocols on one loop.
     *
     * @param http2        this loop's HTTP/2 connections, for a listener that speaks HTTP/2
     */
    static ListenerServing of(Listener listener, DataPlaneSettings settings, ProxyRequestHandler requests,
                              Http2Connections http2) {
        // One Vert.x server speaks both protocols a listener may have (ALPN picks per connection): one serving.
        return new HttpServing(listener, settings, requests, http2);
    }

    /**
     * Creates this loop's server for the listener, bound (once listened) to {@code bindPort}; {@code accepted} is
     * told of every connection before it reads its first byte. Starts what the protocol runs per loop (timers).
     */
    HttpServer start(Vertx vertx, int bindPort, Handler<HttpConnection> accepted);

    /** Stops what {@link #start} started on the loop; the server itself is closed by the caller. */
    void stop(Vertx vertx);
}
