package dev.portico.proxy.core;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** The proxy listener and its request limits. Settings under {@code portico.dataplane.*}. */
@ConfigMapping(prefix = "portico.dataplane")
public interface DataPlaneSettings {
    /** TCP port of the proxy listener; {@code 0} picks a free port (tests). */
    @WithDefault("8080")
    int port();

    @WithDefault("0.0.0.0")
    String host();

    /**
     * TCP port of the TLS listener (HTTP/1.1 over TLS, on {@code host}, set up by {@code portico.tls.*}); {@code 0}
     * picks a free port, {@code -1} runs none. Without certificates (none uploaded, no default) it refuses every
     * handshake with {@code unrecognized_name}.
     */
    @WithDefault("8443")
    int tlsPort();

    /**
     * Whether the cleartext listener also speaks HTTP/2 with prior knowledge (h2c, RFC 9113 section 3.3): a client
     * whose first bytes are the HTTP/2 preface gets HTTP/2, any other HTTP/1.1. Off by default, as in nginx and
     * Envoy: browsers never speak h2c, and behind a proxy that does, the TLS listener is the usual hop.
     */
    @WithDefault("false")
    boolean h2c();

    /** Listener instances, one per event loop; defaults to the number of cores. */
    OptionalInt eventLoops();

    /** The number of data-plane event loops this instance runs. */
    default int eventLoopCount() {
        return eventLoops().orElse(Runtime.getRuntime().availableProcessors());
    }

    /**
     * Closes client connections idle between requests (nginx {@code keepalive_timeout}) or not reading their
     * response; a request Portico is still answering is bounded by its own deadlines instead (see
     * {@code KeepAliveTimeout}).
     */
    @WithDefault("75s")
    Duration idleTimeout();

    /**
     * Longest wait for the next piece of a request body while Portico reads it (nginx {@code client_body_timeout});
     * then 408, or a reset once the response has begun. Time the client is held back by a slow upstream does not
     * count.
     */
    @WithDefault("60s")
    Duration clientBodyTimeout();

    /**
     * How long a client may take to send a request head (nginx {@code client_header_timeout}): from a new
     * connection's opening, and from the first byte of each later head, to the blank line that ends it. A head
     * that began gets 408; a connection that sent nothing is closed. {@code 0} turns it off.
     */
    @WithDefault("30s")
    Duration clientHeaderTimeout();

    /**
     * Longest a client may take nothing of a response body that is waiting for it (nginx {@code send_timeout}): a
     * client that stopped reading, or an HTTP/2 client that keeps its flow-control window shut, is cut off and its
     * upstream let go. 0 turns it off.
     */
    @WithDefault("60s")
    Duration clientSendTimeout();

    /**
     * The most client connections open at once, over every listener (nginx {@code worker_connections}, HAProxy
     * {@code maxconn}); at the limit the listeners stop accepting until one closes, so new clients wait in the
     * kernel's backlog. {@code 0}: no limit.
     */
    @WithDefault("16384")
    int maxConnections();

    /**
     * The most requests in flight at once on this instance (open WebSocket tunnels and streams included); past it a
     * request gets 503 {@code overloaded} with {@code Retry-After: 1} before anything of its vhost runs.
     * {@code 0}: no limit.
     */
    @WithDefault("8192")
    int maxInFlight();

    /** Longest request line accepted; longer gets 414. */
    @WithDefault("8192")
    int maxRequestLine();

    /** Largest request header block accepted; larger gets 431. */
    @WithDefault("32768")
    int maxHeaderSize();

    /**
     * Largest request body of a vhost that does not set its own {@code maxRequestBody}; a larger declared
     * {@code Content-Length} gets 413, a chunked body that grows past it is cut. {@code 0}: no limit.
     */
    @WithDefault("1G")
    MemorySize maxRequestBody();

    /**
     * Peers (CIDRs or single addresses) whose {@code Forwarded}/{@code X-Forwarded-*}/{@code X-Real-IP}
     * headers are trusted and extended; headers from any other peer are replaced. Default: none.
     */
    Optional<List<String>> trustedProxies();

    /**
     * The pseudonym this instance writes in {@code Via}; a request that already carries it has looped back
     * and is refused with 508. Defaults to {@code portico-} and a random suffix chosen at start.
     */
    Optional<String> viaPseudonym();

    /** How long shutdown waits for in-flight requests after it stops accepting connections. */
    @WithDefault("30s")
    Duration shutdownGrace();

    /** HTTP/2 limits (the TLS listener offers h2 by ALPN; the cleartext one takes h2c when {@link #h2c()} is on). */
    Http2 http2();

    /** Settings under {@code portico.dataplane.http2.*}. */
    interface Http2 {
        /** SETTINGS_MAX_CONCURRENT_STREAMS (nginx and Envoy's order of magnitude: 128, 100). */
        @WithDefault("128")
        int maxConcurrentStreams();

        /**
         * SETTINGS_INITIAL_WINDOW_SIZE: how much of a request body a client may send on a stream before Portico
         * has passed it on; the RFC's 65535 keeps what one stream can make Portico hold small.
         */
        @WithDefault("65535")
        int initialWindowSize();

        /**
         * Streams a client may reset within {@code reset-window} before the connection is closed with GOAWAY
         * ENHANCE_YOUR_CALM (rapid reset, CVE-2023-44487).
         */
        @WithDefault("200")
        int maxResetsPerWindow();

        @WithDefault("30s")
        Duration resetWindow();

        /**
         * CONTINUATION frames smaller than 1 KiB a header block may have before the connection is closed
         * (CONTINUATION flood, CVE-2024-27316); the header list size limit bounds the rest.
         */
        @WithDefault("16")
        int maxSmallContinuationFrames();
    }
}
