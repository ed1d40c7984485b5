package dev.portico.proxy.upstream.pool;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.balance.UpstreamTls;
import dev.portico.vhost.UpstreamTlsSpec;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.NoStackTraceTimeoutException;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import org.jboss.logging.Logger;


import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The keep-alive connection pools of one event loop, one per upstream protocol, origin, connect timeout, wait queue
 * size and TLS settings. Created on the loop's thread, so every connection lives on that loop and a request never
 * hops threads. A cleartext HTTP/1.1 upstream's requests go through Portico's own pool ({@link Http1Pool}): Vert.x's
 * client machinery (a request object, promises and header maps per request, a pool taking a combiner round each
 * time) was a seventh of the CPU of a forwarded 1 KiB response. TLS and HTTP/2 upstreams, and protocol switches, use
 * Vert.x's client. Owned by one event loop: not thread-safe.
 */
public final class UpstreamClients {

    private static final Logger LOG = Logger.getLogger(UpstreamClients.class);

    /** Pool settings shared by every upstream. */
    public record Settings(int maxConnections, int keepAliveSeconds) {
    }

    /** The largest piece of a body relayed as one write (client and server side alike). */
    public static final int BODY_CHUNK_SIZE = 64 * 1024;
    /** Upgraded connections (WebSocket tunnels) per event loop and upstream. */
    static final int MAX_TUNNELS = 4096;
    /** HTTP/2 connections per upstream pool and event loop; each multiplexes many streams. */
    static final int HTTP2_CONNECTIONS = 2;

    private final ContextInternal loop;
    private final Vertx vertx;
    private final Settings settings;
    private final Map<String, PooledClient> pools = new HashMap<>();
    private final ReadDeadlines readDeadlines;

    /** @param loop the event loop's context, on which every pool and deadline of this instance lives */
    /** Each event loop's pools, in its {@link LoopState}. */
    public static final Slot<LoopState, UpstreamClients> PER_LOOP = Slot.declare(LoopState.class, "upstream connection pools");

    /** The pools of the given event loop. */
    public static UpstreamClients of(LoopState loop) {
        return loop.get(PER_LOOP);
    }

    public UpstreamClients(Context loop, Settings settings) {
        this.loop = (ContextInternal) loop;
        this.vertx = loop.owner();
        this.settings = settings;
        this.readDeadlines = new ReadDeadlines(loop);
    }

    /**
     * This loop's read deadlines: the vhosts' read timeouts (response heads and bodies) and the client body timeout.
     */
    public ReadDeadlines readDeadlines() {
        return readDeadlines;
    }

    /**
     * The pool for a target, created on first use with {@code limits} (the target's pool key names the connect
     * timeout and the queue size); the caller must {@link PooledClient#release()} it.
     */
    public PooledClient acquire(UpstreamTarget target, PoolLimits limits) {
        PooledClient pool = pools.get(target.poolKey());
        if (pool == null) {
            HttpClientOptions options = options(target, limits);
            // Requests that ask to switch protocols get a client of their own: a connection that switches leaves
            // HTTP for as long as its tunnel lives, and would hold one of the keep-alive pool's connections all
            // that time. (Keep-alive stays on: off, Vert.x would send Connection: close instead of upgrade.)
            HttpClientOptions upgradeOptions = new HttpClientOptions(options).setMaxPoolSize(MAX_TUNNELS);
            int size = target.spec().protocol().http2() ? HTTP2_CONNECTIONS : settings.maxConnections();
            Lane pooled = new Lane(size);
            Http1Pool http1 = http1Pool(target, options, limits);
            if (http1 == null) {
                pooled.client = client(target, options, pooled);
            }
            pool = new PooledClient(pooled, limits.maxPending(), () -> client(target, upgradeOptions, null), http1);
            pools.put(target.poolKey(), pool);
        }
        pool.inFlight++;
        return pool;
    }

    /**
     * Retires the pools no upstream of the new snapshot uses. A retired pool is closed once its last in-flight
     * request is done, so requests still running on the previous snapshot finish normally.
     */
    public void retainOnly(Set<String> poolKeys) {
        for (Iterator<Map.Entry<String, PooledClient>> it = pools.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, PooledClient> entry = it.next();
            if (!poolKeys.contains(entry.getKey())) {
                it.remove();
                entry.getValue().retire();
            }
        }
    }

    public void closeAll() {
        for (PooledClient pool : pools.values()) {
            pool.retire();
        }
        pools.clear();
    }

    /**
     * Portico's own pool for a cleartext HTTP/1.1 upstream, with the Vert.x pool's limits and decoder settings; null
     * for TLS and HTTP/2 upstreams, which Vert.x's client carries.
     */
    private Http1Pool http1Pool(UpstreamTarget target, HttpClientOptions options, PoolLimits limits) {
        if (target.spec().tls() || target.spec().protocol().http2() || !target.server().isInetSocket()) {
            return null;
        }
        VertxInternal owner = (VertxInternal) vertx;
        return new Http1Pool(loop.nettyEventLoop(), owner.transport().channelFactory(false),
                owner.nettyAddressResolverGroup(),
                InetSocketAddress.createUnresolved(target.server().host(), target.server().port()),
                new Http1Pool.Settings(settings.maxConnections(), limits.maxPending(), limits.connectTimeoutMillis(),
                        TimeUnit.SECONDS.toMillis(settings.keepAliveSeconds()), UpstreamCodec.decoderConfig(options)));
    }

    /** @param lane the lane whose open connections to count; null for the upgrade client's (see {@link Lane}) */
    private HttpClient client(UpstreamTarget target, HttpClientOptions options, Lane lane) {
        return vertx.httpClientBuilder()
                .with(options)
                .with(options.getPoolOptions())
                // Runs as each connection opens, before its first request is written. UpstreamCodec is
                // HTTP/1-only: an h2 connection's pipeline has no HTTP/1 codec to replace.
                .withConnectHandler(connection -> {
                    // Without a handler Vert.x logs a connection's failure at ERROR with no context ("recvAddress(..)
                    // failed ... Connection reset by peer"). A request on the connection gets the failure too and
                    // is answered and logged with its vhost (UpstreamFailureLog); an idle one is simply closed.
                    connection.exceptionHandler(failure -> LOG.debugf("connection to %s failed: %s",
                            target.spec().origin(), failure));
                    if (lane != null) {
                        lane.opened(connection);
                    }
                    if (!target.spec().protocol().http2()) {
                        UpstreamCodec.install(connection, options);
                    }
                })
                .build();
    }

    private HttpClientOptions options(UpstreamTarget target, PoolLimits limits) {
        HttpClientOptions options = new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(true)
                .setKeepAliveTimeout(settings.keepAliveSeconds())
                .setMaxPoolSize(settings.maxConnections())
                .setPipelining(false)
                .setTryUseCompression(false)
                .setDecompressionSupported(false)
                .setConnectTimeout(limits.connectTimeoutMillis())
                // Requests beyond the pool wait for a connection; this bounds how many may wait (those waiting for
                // a connection being opened included). Past it Vert.x refuses at once: ConnectionPoolTooBusyException.
                .setMaxWaitQueueSize(limits.maxPending())
                .setMaxHeaderSize(64 * 1024)
                .setMaxInitialLineLength(16 * 1024)
                // Netty's decoder would cut bodies into 8 KiB pieces, each relayed and flushed as its own write.
                .setMaxChunkSize(BODY_CHUNK_SIZE)
                .setTcpNoDelay(true)
                .setShared(false)
                .setName("portico-upstream");
        if (target.spec().protocol().http2()) {
            options.setProtocolVersion(HttpVersion.HTTP_2)
                    // h2c with prior knowledge (RFC 9113 section 3.3): the Upgrade dance would cost a round trip
                    // and send the first request as HTTP/1.1.
                    .setHttp2ClearTextUpgrade(false)
                    // Streams multiplex: a small pool per loop, each connection carrying as many concurrent streams
                    // as the server's SETTINGS_MAX_CONCURRENT_STREAMS allows.
                    .setHttp2MaxPoolSize(HTTP2_CONNECTIONS)
                    .setHttp2KeepAliveTimeout(settings.keepAliveSeconds());
        }
        if (target.spec().tls()) {
            // ALPN only for h2, and then offering h2 alone: an upstream configured h2 that cannot speak it fails
            // the handshake instead of silently serving HTTP/1.1.
            options.setSsl(true).setUseAlpn(target.spec().protocol().http2());
            if (target.spec().protocol().http2()) {
                options.setAlpnVersions(List.of(HttpVersion.HTTP_2));
            }
            configureTls(options, target.tls());
        }
        return options;
    }

    /**
     * The pool's TLS client: trust, host-name check, SNI and client certificate. Safe to set per pool because the
     * pool key carries every TLS setting ({@link UpstreamTls#poolKeySuffix()}).
     */
    public static void configureTls(HttpClientOptions options, UpstreamTls tls) {
        UpstreamTlsSpec settings = tls.settings();
        if (tls.trustsAnyCertificate()) {
            options.setTrustAll(true).setVerifyHost(false);
        } else {
            options.setVerifyHost(true);
            if (settings.caBundle() != null) {
                // Replaces the JVM's trust store for this pool: only the bundle's certificates are trusted.
                options.setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(settings.caBundle())));
            }
        }
        if (settings.serverName() != null) {
            // Requests name the server as their host (RequestOptions.setHost) while connecting to the URL's address;
            // forceSni makes Vert.x put that name in SNI even when it has no dot, which the JDK would leave out.
            // The host-name check uses the same name.
            options.setForceSni(true);
        }
        if (tls.clientCertificate() != null) {
            options.setKeyCertOptions(KeyCertOptions.wrap(new ClientCertificateKeyManager(tls.clientCertificate())));
        }
    }

    /** One pool and the number of requests using it on this loop. */
    public static final class PooledClient {
        private final Lane pooled;
        private final int maxPending;
        private final Supplier<HttpClient> upgradeClientFactory;
        /** Portico's own pool, which carries every request but protocol switches; null where Vert.x's does. */
        private final Http1Pool http1;
        private Lane upgrade;
        private int inFlight;
        private boolean retired;

        PooledClient(Lane pooled, int maxPending, Supplier<HttpClient> upgradeClientFactory, Http1Pool http1) {
            this.pooled = pooled;
            this.maxPending = maxPending;
            this.upgradeClientFactory = upgradeClientFactory;
            this.http1 = http1;
        }

        /**
         * A request on a connection of this pool, or, when {@code upgrade}, of the client for requests that ask to
         * switch protocols, apart from the keep-alive pool: a connection that gets a 101 becomes a tunnel and leaves
         * HTTP for good (Vert.x closes it with the tunnel's socket); one that gets any other answer stays an HTTP
         * connection for the next upgrade request. A tunnel holds this pool (not yet {@link #release()}d) until it
         * closes, so retiring the pool never cuts it.
         *
         * <p>Fails with a {@link PoolRejection} when the wait queue is full, or when every connection stayed busy for
         * {@code queueTimeoutMillis}; with the connect failure otherwise.
         */
        public Future<UpstreamRequest> request(RequestOptions options, boolean upgrade, long queueTimeoutMillis) {
            if (http1 != null && !upgrade) {
                Promise<UpstreamRequest> connected = Promise.promise();
                http1.acquire(queueTimeoutMillis, new Http1Pool.Acquirer() {
                    @Override
                    public void acquired(Http1Connection connection) {
                        connected.complete(new Http1UpstreamRequest(connection, options.getMethod(),
                                options.getURI(), hostField(options)));
                    }

                    @Override
                    public void failed(Throwable cause) {
                        connected.fail(cause);
                    }
                });
                return connected.future();
            }
            Lane lane = pooled;
            if (upgrade) {
                if (this.upgrade == null) {
                    this.upgrade = new Lane(Lane.UNTRACKED);
                    this.upgrade.client = upgradeClientFactory.get();
                }
                lane = this.upgrade;
            }
            return lane.request(options, queueTimeoutMillis, maxPending).map(VertxUpstreamRequest::new);
        }

        /** The {@code Host} Vert.x's client would send: the request's host, with the port unless it is 80. */
        private static String hostField(RequestOptions options) {
            int port = options.getServer() != null ? options.getServer().port() : 80;
            return port == 80 ? options.getHost() : options.getHost() + ":" + port;
        }

        public void release() {
            if (--inFlight == 0 && retired) {
                close();
            }
        }

        void retire() {
            retired = true;
            if (inFlight == 0) {
                close();
            }
        }

        private void close() {
            if (http1 != null) {
                http1.close();
            } else {
                pooled.client.close();
            }
            if (upgrade != null) {
                upgrade.client.close();
            }
        }
    }

    /**
     * One HTTP client of a pool and what this loop knows of its use: the connections open, and the requests waiting
     * for one (being opened, or in the queue). Together they tell whether a new request can only wait. The upgrade
     * client's are not counted: a connection that switches protocols leaves the pool and its close is the tunnel's,
     * which the connection never hears of; its requests wait only behind other upgrade handshakes, so they keep the
     * connect timeout alone.
     */
    static final class Lane {
        /** The size of a lane whose requests never get the queue timeout. */
        static final int UNTRACKED = Integer.MAX_VALUE;
        private final int size;
        private HttpClient client;
        private int open;
        private int waiting;

        Lane(int size) {
            this.size = size;
        }

        void opened(HttpConnection connection) {
            open++;
            connection.closeHandler(closed -> open--);
        }

        Future<HttpClientRequest> request(RequestOptions options, long queueTimeoutMillis, int maxPending) {
            // Only a request that can only wait gets the queue timeout: the pool is at its size (connections open or
            // being opened for the requests before it). Vert.x arms that timer when the request is queued, or when a
            // connection is opened for it; a request that opens one keeps the TCP connect timeout alone, so a slow
            // connect is upstream_connect_timeout, never a full pool. When an idle connection serves the request at
            // once, no timer is armed at all.
            boolean mayWait = open + waiting >= size;
            if (mayWait) {
                options.setConnectTimeout(queueTimeoutMillis);
            }
            waiting++;
            Promise<HttpClientRequest> connected = Promise.promise();
            client.request(options).onComplete(result -> {
                waiting--;
                if (result.failed()) {
                    connected.fail(rejection(result.cause(), mayWait, queueTimeoutMillis, maxPending));
                } else {
                    connected.complete(result.result());
                }
            });
            return connected.future();
        }

        /** A failure of the pool's own making as a {@link PoolRejection}; any other as it is. */
        private static Throwable rejection(Throwable cause, boolean timed, long queueTimeoutMillis, int maxPending) {
            if (cause instanceof ConnectionPoolTooBusyException) {
                return PoolRejection.queueFull(maxPending);
            }
            // Vert.x's own timer for the time to get a connection; a TCP connect timeout is Netty's
            // ConnectTimeoutException instead.
            if (timed && cause instanceof NoStackTraceTimeoutException) {
                return PoolRejection.queueTimedOut(queueTimeoutMillis);
            }
            return cause;
        }
    }
}
