package dev.portico.proxy.upstream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Defaults for connections to upstreams. Settings under {@code portico.upstream.*}. */
@ConfigMapping(prefix = "portico.upstream")
public interface UpstreamSettings {
    /** Connections per event loop and upstream (the pool size; more requests wait for a free connection). */
    @WithDefault("128")
    int maxConnections();

    /**
     * Requests per event loop and upstream that may wait for a connection while all {@link #maxConnections()} are
     * busy; past it a request gets 503 {@code upstream_overloaded}. A vhost's {@code upstreamLimits.maxPending}
     * overrides it. At least 1.
     */
    @WithDefault("1024")
    int maxPending();

    /** Idle keep-alive connections to an upstream are closed after this long. */
    @WithDefault("55s")
    Duration keepAliveTimeout();

    /** Consecutive failed attempts after which an upstream is taken out (nginx {@code max_fails}). */
    @WithDefault("1")
    int maxFails();

    /** How long a failed upstream stays out before one request probes it (nginx {@code fail_timeout}). */
    @WithDefault("10s")
    Duration failTimeout();

    /** Resolving upstream host names; settings under {@code portico.upstream.dns.*}. */
    Dns dns();

    interface Dns {
        /**
         * DNS servers ({@code host:port}, port 53 when left out) asked for upstream host names; by default those of
         * {@code /etc/resolv.conf}. Names in {@code /etc/hosts} are taken from there.
         */
        Optional<List<String>> servers();

        /** Shortest time an answer is kept, whatever its TTL says (a TTL of 0 would mean a query per request). */
        @WithDefault("5s")
        Duration minTtl();

        /** Longest time an answer is kept, so a changed record is seen within this even under a long TTL. */
        @WithDefault("300s")
        Duration maxTtl();

        /** How long one query may take; a name that fails keeps its last addresses and is asked again at min-ttl. */
        @WithDefault("2s")
        Duration timeout();
    }
}
