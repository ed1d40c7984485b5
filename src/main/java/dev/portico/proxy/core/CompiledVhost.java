package dev.portico.proxy.core;

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
    private final VhostRuntime runtime;
    private final RouteSelector routes;
    private final boolean anyCompression;

    /**
     * @param routes chooses among the vhost's routes, or null when it has none
     * @param anyCompression whether the vhost or one of its routes compresses responses
     */
    public CompiledVhost(VhostSpec spec, Stage[] stages, VhostStats stats, VhostRuntime runtime,
                         RouteSelector routes, boolean anyCompression) {
        this.runtime = runtime;
        this.routes = routes;
        this.anyCompression = anyCompression;
        this.spec = spec;
        this.stages = stages;
        this.stats = stats;
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

    /**
     * The stages that serve {@code exchange}: its route's, or the vhost's own; null when the request was answered
     * already (a path no route can safely read).
     */
    Stage[] stagesFor(Exchange exchange) {
        return routes == null ? stages : routes.select(exchange, stages);
    }

    /** Whether some response of the vhost may be compressed (by its own settings or a route's). */
    public boolean anyCompression() {
        return anyCompression;
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
