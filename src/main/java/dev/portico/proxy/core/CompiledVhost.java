package dev.portico.proxy.core;

import dev.portico.http.coding.CompressionPolicy;
import dev.portico.proxy.core.counters.VhostStats;
import dev.portico.vhost.VhostSpec;

/**
 * A vhost ready to serve: its spec, its stage list built once at compile time and its statistics.
 * Immutable and shared by all event loops.
 */
public final class CompiledVhost {

    private final VhostSpec spec;
    private final Stage[] stages;
    private final VhostStats stats;
    private final CompressionPolicy compression;
    private final VhostRuntime runtime;

    public CompiledVhost(VhostSpec spec, Stage[] stages, VhostStats stats,
                         CompressionPolicy compression, VhostRuntime runtime) {
        this.runtime = runtime;
        this.spec = spec;
        this.stages = stages;
        this.stats = stats;
        this.compression = compression;
    }

    public VhostSpec spec() {
        return spec;
    }

    public String name() {
        return spec.name();
    }

    public boolean enabled() {
        return spec.enabled();
    }

    /** The pipeline, outermost stage first. Callers must not modify the array. */
    public Stage[] stages() {
        return stages;
    }

    /** How responses are compressed; null when this vhost does not compress. */
    public CompressionPolicy compression() {
        return compression;
    }

    /** The vhost's state that outlives snapshots (in-flight fills, file lookups), handed on by the next compile. */
    public VhostRuntime runtime() {
        return runtime;
    }

    /** Live statistics; each event loop writes its own slot. */
    public VhostStats stats() {
        return stats;
    }
}
