package dev.portico.proxy.core;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The state of one vhost that lives across routing snapshots: a cache's in-flight fills, a static root's file
 * lookups. Every publish compiles every vhost again, so without this an edit of vhost A would drop vhost B's
 * collapsing map (B's next miss would go upstream beside the fill already running) and its file lookups.
 *
 * <p>Identity is the vhost's id, stable across edits and renames (a vhost deleted and created again is a new one).
 * A stage claims its state at compile time with a <em>compatibility</em> object built from exactly the settings the
 * state depends on (value equality): when the vhost's previous runtime holds an equal one, the state is handed over
 * and requests of the old and the new snapshot share it; otherwise a new state starts. Written only while its
 * snapshot is compiled (the compiler is single-threaded), read-only once the snapshot is published; the states
 * themselves are thread-safe.
 */
public final class VhostRuntime {

    private record Held(Object compatibility, Object state) {
    }

    private final UUID vhostId;
    private final Map<RuntimeKey<?>, Held> states = new HashMap<>(4);
    private final Map<String, VhostRuntime> parts = new HashMap<>(2);
    /** The runtime of the vhost in the snapshot compiled before, while this one is compiled; then null. */
    private VhostRuntime previous;

    /**
     * @param previous the vhost's runtime in the last published snapshot, or null (a new vhost, a dry run)
     */
    public VhostRuntime(UUID vhostId, VhostRuntime previous) {
        this.vhostId = vhostId;
        this.previous = previous != null && vhostId.equals(previous.vhostId) ? previous : null;
    }

    public UUID vhostId() {
        return vhostId;
    }

    /**
     * The state for {@code key}: the previous runtime's when it was claimed with an equal {@code compatibility},
     * otherwise a new one from {@code create}. Compile time only.
     */
    public <T> T claim(RuntimeKey<T> key, Object compatibility, Supplier<T> create) {
        Held old = previous == null ? null : previous.states.get(key);
        T state = old != null && old.compatibility().equals(compatibility) ? key.cast(old.state()) : create.get();
        states.put(key, new Held(compatibility, state));
        return state;
    }

    /**
     * The runtime of one part of the vhost that has state of its own (a route with its own upstreams and breaker),
     * handed over from the previous runtime's part of the same {@code key}. Compile time only.
     */
    public VhostRuntime part(String key) {
        VhostRuntime part = new VhostRuntime(vhostId, previous == null ? null : previous.parts.get(key));
        parts.put(key, part);
        return part;
    }

    /** The parts claimed by this compile, by key. */
    public Map<String, VhostRuntime> parts() {
        return java.util.Collections.unmodifiableMap(parts);
    }

    /** Ends the compile: the previous runtime is let go, so runtimes never chain across snapshots. */
    public void sealed() {
        previous = null;
        parts.values().forEach(VhostRuntime::sealed);
    }

    /** The state claimed for {@code key}, or null: for diagnostics and tests. */
    public <T> T state(RuntimeKey<T> key) {
        Held held = states.get(key);
        return held == null ? null : key.cast(held.state());
    }
}
