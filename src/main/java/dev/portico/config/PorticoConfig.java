package dev.portico.config;

import io.quarkus.runtime.configuration.MemorySize;
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

    Analytics analytics();

    AccessLog accessLog();

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
    }

    /** Management API access. */
    interface Admin {
        /**
         * Bearer token for {@code /api}; from {@code PORTICO_ADMIN_TOKEN}. When unset, a token is generated at first
         * start, only its hash is stored in the database, and it is printed once.
         */
        Optional<String> token();

        /**
         * Largest request body the API takes. Checked after the token, so only an authenticated client learns of it;
         * larger bodies get 413 (see {@code dev.portico.control.api.body}).
         */
        @WithDefault("10M")
        MemorySize maxBodySize();
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

    /**
     * Per-vhost traffic analytics: samples handed off the event loops, rolled up per minute by one thread, stored in
     * PostgreSQL and read through {@code GET /api/v1/vhosts/{id}/analytics}.
     */
    interface Analytics {
        /** Collect analytics; when off, requests are not sampled (stored buckets stay readable until retention). */
        @WithDefault("true")
        boolean enabled();

        /** Buckets older than this are deleted; also the longest range the API answers in one call. */
        @WithDefault("7d")
        Duration retention();

        /** How often buckets older than the retention are deleted. */
        @WithDefault("10m")
        Duration purgeInterval();

        /** Length of a bucket. A minute; shorter only to make tests fast. */
        @WithDefault("1m")
        Duration bucket();

        /**
         * Samples each event loop can hand over between two drains (rounded up to a power of two);
         * more are dropped and counted.
         */
        @WithDefault("16384")
        int queueSize();

        /** How often the analytics thread drains the event loops' queues. */
        @WithDefault("200ms")
        Duration drainInterval();

        /** Distinct values tracked per dimension, vhost and bucket (heavy hitters; rounded up to a power of two). */
        @WithDefault("128")
        int sketchSize();

        /** Values stored per dimension, vhost and bucket (top paths, clients, user agents, referrers). */
        @WithDefault("20")
        int top();

        /** Closed buckets kept in memory while the database cannot take them; beyond that the oldest are dropped. */
        @WithDefault("10")
        int maxPendingBuckets();
    }

    /** The access log: one line per request, batched per event loop and written by one background thread. */
    interface AccessLog {
        /** Line formats: JSON objects, or nginx's {@code combined} plus request id, request time and vhost. */
        enum Format {
            JSON, COMBINED
        }

        /**
         * The file to append to, relative to the working directory unless absolute; {@code stdout} writes to the
         * process's standard output instead (the container images' setting; never rotated); {@code off} (or empty)
         * disables the access log.
         */
        @WithDefault("logs/access.log")
        Optional<String> file();

        @WithDefault("json")
        Format format();

        /** Rotate when the next batch would take the file past this size ({@code access.log -> access.log.1}). */
        @WithDefault("100M")
        MemorySize maxFileSize();

        /** Rotated files kept ({@code access.log.1} to {@code access.log.N}); older ones are deleted. */
        @WithDefault("10")
        int maxFiles();

        /** Size of one event loop's batch buffer, handed to the writer when full or every 200 ms. */
        @WithDefault("64K")
        MemorySize batchSize();

        /** Full batches waiting for the writer; beyond this, batches are dropped and counted. */
        @WithDefault("64")
        int queueBatches();

        /** Log requests no vhost serves (unknown host, malformed request). */
        @WithDefault("true")
        boolean unmatched();
    }

    /** The in-memory response cache shared by the vhosts that enable it. */
    Cache cache();

    interface Cache {
        /** Memory for stored responses of all vhosts together; each vhost's {@code cache.maxSize} is a share of it. */
        @WithDefault("256M")
        MemorySize memoryBudget();
    }
}
