package dev.portico.proxy.route;

import dev.portico.http.TrustedProxies;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The one place the current {@link RoutingSnapshot} lives. Event loops read it with a single volatile load per
 * request; the management side publishes a new one with a single store. A plain singleton (no client proxy) so the
 * hot path calls it directly.
 */
@Singleton
public class SnapshotHolder {

    private volatile RoutingSnapshot current = new RoutingSnapshot(0, Instant.EPOCH, List.of(), HostNameTable.of(Map.of()),
            Set.of(), TrustedProxies.NONE, "portico", TlsTable.EMPTY);
    private volatile boolean published;
    private final List<Consumer<RoutingSnapshot>> listeners = new CopyOnWriteArrayList<>();

    public RoutingSnapshot current() {
        return current;
    }

    /** Whether a snapshot from the database has been published since start. */
    public boolean hasPublished() {
        return published;
    }

    /** Swaps the snapshot in; new requests use it at once, running ones keep theirs. Then tells the listeners. */
    public void publish(RoutingSnapshot snapshot) {
        current = snapshot;
        published = true;
        for (Consumer<RoutingSnapshot> listener : listeners) {
            listener.accept(snapshot);
        }
    }

    /** Called after each publish, on the publishing thread. */
    public void onPublish(Consumer<RoutingSnapshot> listener) {
        listeners.add(listener);
    }
}
