package dev.portico.proxy.tunnel;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.outcome.TunnelClose;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The tunnels open on one event loop. A tunnel keeps the routing decision it was opened with, whatever later
 * snapshots change (as a request in flight keeps its snapshot): only its vhost going away (deleted, or disabled)
 * closes it, as does the data plane's shutdown. Confined to its loop.
 */
public final class OpenTunnels {

    /** Each event loop's open tunnels, in its {@link LoopState}. */
    public static final Slot<LoopState, OpenTunnels> PER_LOOP = Slot.declare(LoopState.class, "open tunnels");

    private final Set<Tunnel> open = new LinkedHashSet<>();

    /** The open tunnels of a loop, created on first use. */
    public static OpenTunnels of(LoopState loop) {
        OpenTunnels tunnels = loop.get(PER_LOOP);
        if (tunnels == null) {
            tunnels = new OpenTunnels();
            loop.put(PER_LOOP, tunnels);
        }
        return tunnels;
    }

    void add(Tunnel tunnel) {
        open.add(tunnel);
    }

    void remove(Tunnel tunnel) {
        open.remove(tunnel);
    }

    public boolean isEmpty() {
        return open.isEmpty();
    }

    /**
     * Closes the tunnels whose vhost no longer serves: {@code serving} says, by vhost id, whether the adopted
     * snapshot still has the vhost, enabled. Edits keep the vhost's id, so they keep its tunnels.
     */
    public void closeUnless(Predicate<UUID> serving) {
        for (Tunnel tunnel : List.copyOf(open)) {
            if (!serving.test(tunnel.vhostId())) {
                tunnel.close(TunnelClose.VHOST_REMOVED);
            }
        }
    }

    /** Closes every tunnel of the loop: shutdown, once the drain grace has passed. */
    public void closeAll(TunnelClose why) {
        for (Tunnel tunnel : new ArrayList<>(open)) {
            tunnel.close(why);
        }
    }
}
