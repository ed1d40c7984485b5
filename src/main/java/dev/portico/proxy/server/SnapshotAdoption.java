package dev.portico.proxy.server;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.upstream.pool.UpstreamClients;

import java.util.ArrayList;
import java.util.List;

/**
 * One event loop's view of which routing snapshot it serves: when a request (or the publisher's broadcast) brings a
 * newer one, the loop retires the pools of upstreams that snapshot no longer uses. Round-robin cursors and other
 * per-vhost state outlive snapshots on their own ({@code VhostRuntime}).
 */
final class SnapshotAdoption {

    static final Slot<LoopState, SnapshotAdoption> PER_LOOP = Slot.declare(LoopState.class, "adopted snapshot");

    private final UpstreamClients upstreams;
    private final List<ListenerCertificates> certificates = new ArrayList<>();
    private RoutingSnapshot adopted;

    SnapshotAdoption(UpstreamClients upstreams) {
        this.upstreams = upstreams;
    }

    /** Keeps a TLS server of this loop presenting the adopted snapshot's certificates. */
    void follow(ListenerCertificates listener) {
        certificates.add(listener);
    }

    /** Switches this loop to {@code snapshot}, once; runs on the loop. */
    void adopt(RoutingSnapshot snapshot) {
        if (snapshot != adopted) {
            adopted = snapshot;
            upstreams.retainOnly(snapshot.poolKeys());
            for (ListenerCertificates listener : certificates) {
                listener.adopt(snapshot);
            }
        }
    }
}
