package dev.portico.control.snapshot;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** How routing snapshots follow the database. Settings under {@code portico.reload.*}. */
@ConfigMapping(prefix = "portico.reload")
public interface ReloadSettings {
    /** Listen for PostgreSQL NOTIFY from other replicas. */
    @WithDefault("true")
    boolean listen();

    /** Safety net: compare the database's config version this often and reload when it moved. */
    @WithDefault("15s")
    Duration pollInterval();

    /**
     * While the database is unreachable, try it this often ({@code DatabaseReachability}); only such a probe ends an
     * outage, so this bounds how long the API keeps answering 503 after PostgreSQL is back.
     */
    @WithDefault("1s")
    Duration databaseProbeInterval();
}
