package dev.portico.proxy.server;

import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.RoutedExchanges;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.tunnel.OpenTunnels;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.vertx.core.Vertx;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * One event loop's view of which routing snapshot it serves: when a request (or the publisher's broadcast) brings a
 * newer one, the loop retires the pools of upstreams that snapshot no longer uses, and gives the streams and tunnels
 * of vhosts it no longer serves their grace period ({@link RoutedExchanges}, {@link OpenTunnels}). Round-robin
 * cursors and other per-vhost state outlive snapshots on their own ({@code VhostRuntime}).
 */
final class SnapshotAdoption {

    static final Slot<LoopState, SnapshotAdoption> PER_LOOP = Slot.declare(LoopState.class, "adopted snapshot");

    private final UpstreamClients upstreams;
    private final RoutedExchanges routed;
    private final OpenTunnels tunnels;
    private final Vertx vertx;
    private final long graceMillis;
    private RoutingSnapshot adopted;

    /** @param graceMillis how long a stream or tunnel whose vhost went may run on before it is cut */
    SnapshotAdoption(UpstreamClients upstreams, RoutedExchanges routed, OpenTunnels tunnels, Vertx vertx,
                     long graceMillis) {
        this.upstreams = upstreams;
        this.routed = routed;
        this.tunnels = tunnels;
        this.vertx = vertx;
        this.graceMillis = graceMillis;
    }

    /** Switches this loop to {@code snapshot}, once; runs on the loop. */
    void adopt(RoutingSnapshot snapshot) {
        if (snapshot != adopted) {
            adopted = snapshot;
            upstreams.retainOnly(snapshot.poolKeys());
            if (routed.size() > 0 || !tunnels.isEmpty()) {
                Set<UUID> serving = servingVhosts(snapshot);
                routed.retireAllBut(serving, vertx, graceMillis);
                // Tunnels keep the vhost they were opened on through edits; its deletion or disabling ends them.
                tunnels.closeUnless(serving, vertx, graceMillis);
            }
        }
    }

    private static Set<UUID> servingVhosts(RoutingSnapshot snapshot) {
        Set<UUID> ids = new HashSet<>();
        for (CompiledVhost vhost : snapshot.vhosts()) {
            if (vhost.enabled()) {
                ids.add(vhost.spec().id());
            }
        }
        return ids;
    }
}
