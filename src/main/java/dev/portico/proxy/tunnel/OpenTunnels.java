package dev.portico.proxy.tunnel;

import dev.portico.proxy.core.LoopState;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.outcome.TunnelClose;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The tunnels open on one event loop. A tunnel keeps the routing decision it was opened with, whatever later
 * snapshots change (as a request in flight keeps its snapshot): only its vhost going away (deleted, or disabled)
 * closes it, after the same grace the vhost's other streams get, as does the data plane's shutdown. Confined to its loop.
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
     * The vhosts serving now are {@code serving} (enabled ones): the tunnels of any other vhost are closed
     * ({@link TunnelClose#VHOST_REMOVED}) unless they end within {@code graceMillis}, like the vhost's other streams
     * in flight. Edits keep a vhost's id, so they keep its tunnels.
     */
    public void closeUnless(Set<UUID> serving, Vertx vertx, long graceMillis) {
        List<Tunnel> orphans = new ArrayList<>();
        for (Tunnel tunnel : open) {
            if (!serving.contains(tunnel.vhostId())) {
                orphans.add(tunnel);
            }
        }
        if (orphans.isEmpty()) {
            return;
        }
        vertx.setTimer(Math.max(1, graceMillis), id -> {
            for (Tunnel orphan : orphans) {
                // Closing twice does nothing: one that ended meanwhile stays as it ended.
                orphan.close(TunnelClose.VHOST_REMOVED);
            }
        });
    }

    /** Closes every tunnel of the loop: shutdown, once the drain grace has passed. */
    public void closeAll(TunnelClose why) {
        for (Tunnel tunnel : new ArrayList<>(open)) {
            tunnel.close(why);
        }
    }
}
