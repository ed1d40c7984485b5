package dev.portico.control.snapshot;

import dev.portico.vhost.VhostSpec;

import java.util.List;

/**
 * Where snapshots come from: the stored vhosts and the configuration version they belong to. Implemented by the
 * management layer over PostgreSQL; called only from worker threads, never from an event loop.
 */
public interface VhostSource {

    /** The configuration version and every vhost, read so that the vhosts include at least that version. */
    Loaded load();

    /** The current configuration version only: a cheap check whether a reload is needed. */
    long currentVersion();

    /** A consistent read of the configuration. */
    record Loaded(long version, List<VhostSpec> vhosts) {
    }
}
