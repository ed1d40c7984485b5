package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * One event loop's exchanges in flight that a vhost took, so a long-lived one (server-sent events, a gRPC stream,
 * a long download) can be ended when its vhost goes: it keeps the routing it started with through every other
 * commit, but a vhost deleted or disabled stops serving, and its streams end after a grace period instead of
 * running on a configuration that no longer exists. Confined to the loop.
 */
public final class RoutedExchanges {

    public static final Slot<LoopState, RoutedExchanges> PER_LOOP = Slot.declare(LoopState.class, "routed exchanges");

    private final Set<Exchange> inFlight = Collections.newSetFromMap(new IdentityHashMap<>());

    void started(Exchange exchange) {
        inFlight.add(exchange);
    }

    void ended(Exchange exchange) {
        inFlight.remove(exchange);
    }

    /**
     * The vhosts serving now are {@code serving} (enabled ones): the exchanges of any other vhost end with
     * {@link LocalReason#VHOST_REMOVED} unless they finish within {@code graceMillis}.
     */
    public void retireAllBut(Set<UUID> serving, Vertx vertx, long graceMillis) {
        List<Exchange> orphans = new ArrayList<>();
        for (Exchange exchange : inFlight) {
            if (!serving.contains(exchange.vhost().spec().id())) {
                orphans.add(exchange);
            }
        }
        if (orphans.isEmpty()) {
            return;
        }
        vertx.setTimer(Math.max(1, graceMillis), id -> {
            for (Exchange orphan : orphans) {
                if (inFlight.contains(orphan)) {
                    orphan.abort(LocalReason.VHOST_REMOVED);
                }
            }
        });
    }

    /** Exchanges in flight on this loop that a vhost took. */
    public int size() {
        return inFlight.size();
    }
}
