package dev.portico.cache;

import jakarta.inject.Singleton;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The response stores of all vhosts, kept across routing snapshots (editing a vhost keeps its cache, as an nginx
 * reload does) and sized from one global memory budget: each vhost asks for a share, and when the shares add up
 * to more than the budget every share is scaled down in proportion.
 *
 * <p>{@link #bind} has one writer at a time: it runs while a snapshot is compiled, which the snapshot reloader
 * serialises. Nothing here takes a lock, so a reader (an event loop looking up its store, the API, the metrics) never
 * waits; readers see each store as soon as it is bound, as before.
 */
@Singleton
public class CacheRegistry {

    private final long budget;
    private final Map<UUID, ResponseStore> stores = new ConcurrentHashMap<>();
    private final AtomicBoolean binding = new AtomicBoolean();

    public CacheRegistry(CacheSettings config) {
        this.budget = config.memoryBudget().asLongValue();
    }

    /** The global budget in bytes. */
    public long budget() {
        return budget;
    }

    /**
     * Binds the stores of a new snapshot: {@code shares} maps each cache-enabled vhost to its name and the bytes
     * it asks for. Stores of vhosts no longer caching are dropped; the others are created or resized.
     *
     * @return the store of every vhost in {@code shares}
     * @throws IllegalStateException when another bind is still running: snapshots are bound one at a time, and an
     *         overlap would be a bug in the caller, reported rather than waited for
     */
    public Map<UUID, ResponseStore> bind(Map<UUID, Share> shares) {
        if (!binding.compareAndSet(false, true)) {
            throw new IllegalStateException("two snapshots are bound at once; the snapshot reloader serialises them");
        }
        try {
            return rebind(shares);
        } finally {
            binding.set(false);
        }
    }

    private Map<UUID, ResponseStore> rebind(Map<UUID, Share> shares) {
        long asked = 0;
        for (Share share : shares.values()) {
            asked += share.bytes();
        }
        double scale = asked > budget ? (double) budget / asked : 1.0;
        stores.keySet().removeIf(id -> {
            if (!shares.containsKey(id)) {
                stores.get(id).clear();
                return true;
            }
            return false;
        });
        Map<UUID, ResponseStore> bound = new ConcurrentHashMap<>();
        shares.forEach((id, share) -> {
            long bytes = Math.max(1, (long) (share.bytes() * scale));
            ResponseStore store = stores.computeIfAbsent(id, k -> new ResponseStore(bytes));
            store.resize(bytes);
            store.name(share.vhost());
            bound.put(id, store);
        });
        return bound;
    }

    /** What a cache-enabled vhost asks for. */
    public record Share(String vhost, long bytes) {
    }

    /** Every bound store. */
    public Iterable<ResponseStore> stores() {
        return stores.values();
    }

    /** The store of a vhost, or null when its cache is off. */
    public ResponseStore store(UUID vhostId) {
        return stores.get(vhostId);
    }
}
