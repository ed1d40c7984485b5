package dev.portico.control.snapshot;

import dev.portico.proxy.route.TlsMaterial;
import dev.portico.vhost.VhostSpec;

import java.util.List;

/**
 * Where snapshots come from: the stored vhosts, the certificates, and the configuration version they belong to.
 * Implemented by the management layer over PostgreSQL; called only from worker threads, never from an event loop.
 */
public interface VhostSource {

    /** The configuration version and every vhost, read so that the vhosts include at least that version. */
    Loaded load();

    /** The current configuration version only: a cheap check whether a reload is needed. */
    long currentVersion();

    /**
     * A consistent read of the configuration.
     *
     * @param tls                every stored certificate whose key could be opened, the ACME vhosts' certificates and
     *                           the live ACME challenges
     * @param certificateProblem why some certificates could not be opened (no or the wrong secret key), or null
     */
    record Loaded(long version, List<VhostSpec> vhosts, TlsMaterial tls, String certificateProblem) {
    }
}
