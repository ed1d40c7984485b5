package dev.portico.proxy.upstream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Defaults for connections to upstreams. Settings under {@code portico.upstream.*}. */
@ConfigMapping(prefix = "portico.upstream")
public interface UpstreamSettings {
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
