package dev.portico.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Portico's own runtime configuration ({@code portico.*} in {@code application.properties}, or the matching
 * environment variables such as {@code PORTICO_ADMIN_TOKEN}).
 */
@ConfigMapping(prefix = "portico")
public interface PorticoConfig {

    DataPlane dataplane();

    Admin admin();

    Upstream upstream();

    Reload reload();

    /** The proxy listener and its request limits. */
    interface DataPlane {
        /** TCP port of the proxy listener; {@code 0} picks a free port (tests). */
        @WithDefault("8080")
        int port();

        @WithDefault("0.0.0.0")
        String host();

        /** Listener instances, one per event loop; defaults to the number of cores. */
        OptionalInt eventLoops();

        /** The number of data-plane event loops this instance runs. */
        default int eventLoopCount() {
            return eventLoops().orElse(Runtime.getRuntime().availableProcessors());
        }

        /** Closes idle client keep-alive connections (nginx {@code keepalive_timeout}). */
        @WithDefault("75s")
        Duration idleTimeout();

        /** Longest request line accepted; longer gets 414. */
        @WithDefault("8192")
        int maxRequestLine();

        /** Largest request header block accepted; larger gets 431. */
        @WithDefault("32768")
        int maxHeaderSize();

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
    }

    /** Management API access. */
    interface Admin {
        /**
         * Bearer token for {@code /api}; from {@code PORTICO_ADMIN_TOKEN}. When unset, a token is generated at first
         * start, only its hash is stored in the database, and it is printed once.
         */
        Optional<String> token();
    }

    /** Defaults for connections to upstreams. */
    interface Upstream {
        /** Connections per event loop and upstream (the pool size; more requests wait for a free connection). */
        @WithDefault("128")
        int maxConnections();

        /** Idle keep-alive connections to an upstream are closed after this long. */
        @WithDefault("55s")
        Duration keepAliveTimeout();

        /** Consecutive failed attempts after which an upstream is taken out (nginx {@code max_fails}). */
        @WithDefault("1")
        int maxFails();

        /** How long a failed upstream stays out before one request probes it (nginx {@code fail_timeout}). */
        @WithDefault("10s")
        Duration failTimeout();
    }

    /** How routing snapshots follow the database. */
    interface Reload {
        /** Listen for PostgreSQL NOTIFY from other replicas. */
        @WithDefault("true")
        boolean listen();

        /** Safety net: compare the database's config version this often and reload when it moved. */
        @WithDefault("15s")
        Duration pollInterval();
    }
}
