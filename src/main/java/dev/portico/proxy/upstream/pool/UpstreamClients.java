package dev.portico.proxy.upstream.pool;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.balance.UpstreamTls;
import dev.portico.vhost.UpstreamTlsSpec;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The keep-alive connection pools of one event loop, one per upstream protocol, origin, connect timeout and TLS settings. Created on the
 * loop's thread, so every connection lives on that loop and a request never hops threads. Owned by one event
 * loop: not thread-safe.
 */
public final class UpstreamClients {

    /** Pool settings shared by every upstream. */
    public record Settings(int maxConnections, int keepAliveSeconds) {
    }

    /** The largest piece of a body relayed as one write (client and server side alike). */
    public static final int BODY_CHUNK_SIZE = 64 * 1024;
    static final int MAX_WAITING = 4096;
    /** Upgraded connections (WebSocket tunnels) per event loop and upstream. */
    static final int MAX_TUNNELS = 4096;
    /** HTTP/2 connections per upstream pool and event loop; each multiplexes many streams. */
    static final int HTTP2_CONNECTIONS = 2;

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

    /** The pool for a target, created on first use; the caller must {@link PooledClient#release()} it. */
    public PooledClient acquire(UpstreamTarget target, int connectTimeoutMillis) {
        PooledClient pool = pools.get(target.poolKey());
        if (pool == null) {
            HttpClientOptions options = options(target, connectTimeoutMillis);
            // Requests that ask to switch protocols get a client of their own: a connection that switches leaves
            // HTTP for as long as its tunnel lives, and would hold one of the keep-alive pool's connections all
            // that time. (Keep-alive stays on: off, Vert.x would send Connection: close instead of upgrade.)
            HttpClientOptions upgradeOptions = new HttpClientOptions(options).setMaxPoolSize(MAX_TUNNELS);
            pool = new PooledClient(client(target, options), () -> client(target, upgradeOptions));
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

    private HttpClient client(UpstreamTarget target, HttpClientOptions options) {
        return vertx.httpClientBuilder()
                .with(options)
                .with(options.getPoolOptions())
                // Runs as each connection opens, before its first request is written. UpstreamCodec is
                // HTTP/1-only: an h2 connection's pipeline has no HTTP/1 codec to replace.
                .withConnectHandler(connection -> {
                    if (!target.spec().protocol().http2()) {
                        UpstreamCodec.install(connection, options);
                    }
                })
                .build();
    }

    private HttpClientOptions options(UpstreamTarget target, int connectTimeoutMillis) {
        HttpClientOptions options = new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setKeepAlive(true)
                .setKeepAliveTimeout(settings.keepAliveSeconds())
                .setMaxPoolSize(settings.maxConnections())
                .setPipelining(false)
                .setTryUseCompression(false)
                .setDecompressionSupported(false)
                .setConnectTimeout(connectTimeoutMillis)
                // Requests beyond the pool wait for a connection; this bounds how many may wait.
                .setMaxWaitQueueSize(MAX_WAITING)
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
        private final HttpClient client;
        private final Supplier<HttpClient> upgradeClientFactory;
        private HttpClient upgradeClient;
        private int inFlight;
        private boolean retired;

        PooledClient(HttpClient client, Supplier<HttpClient> upgradeClientFactory) {
            this.client = client;
            this.upgradeClientFactory = upgradeClientFactory;
        }

        public HttpClient client() {
            return client;
        }

        /**
         * The client for requests that ask to switch protocols, apart from the keep-alive pool: a connection that
         * gets a 101 becomes a tunnel and leaves HTTP for good (Vert.x closes it with the tunnel's socket); one that
         * gets any other answer stays an HTTP connection for the next upgrade request. A tunnel holds this pool
         * (not yet {@link #release()}d) until it closes, so retiring the pool never cuts it.
         */
        public HttpClient upgradeClient() {
            if (upgradeClient == null) {
                upgradeClient = upgradeClientFactory.get();
            }
            return upgradeClient;
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
            client.close();
            if (upgradeClient != null) {
                upgradeClient.close();
            }
        }
    }
}
