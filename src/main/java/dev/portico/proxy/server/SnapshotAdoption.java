package dev.portico.proxy.server;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.tunnel.OpenTunnels;
import dev.portico.proxy.upstream.pool.UpstreamClients;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * One event loop's view of which routing snapshot it serves: when a request (or the publisher's broadcast) brings a
 * newer one, the loop retires the pools of upstreams that snapshot no longer uses and closes the tunnels of vhosts it
 * no longer serves. Round-robin cursors and other
 * per-vhost state outlive snapshots on their own ({@code VhostRuntime}).
 */
final class SnapshotAdoption {

    static final Slot<LoopState, SnapshotAdoption> PER_LOOP = Slot.declare(LoopState.class, "adopted snapshot");

    private final UpstreamClients upstreams;
    private final OpenTunnels tunnels;
    private final List<ListenerCertificates> certificates = new ArrayList<>();
    private RoutingSnapshot adopted;

    SnapshotAdoption(UpstreamClients upstreams, OpenTunnels tunnels) {
        this.upstreams = upstreams;
        this.tunnels = tunnels;
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
            if (!tunnels.isEmpty()) {
                // Tunnels keep the vhost they were opened on through edits; its deletion or disabling ends them.
                Set<UUID> serving = new HashSet<>();
                for (CompiledVhost vhost : snapshot.vhosts()) {
                    if (vhost.enabled()) {
                        serving.add(vhost.spec().id());
                    }
                }
                tunnels.closeUnless(serving::contains);
            }
            for (ListenerCertificates listener : certificates) {
                listener.adopt(snapshot);
            }
        }
    }
}
