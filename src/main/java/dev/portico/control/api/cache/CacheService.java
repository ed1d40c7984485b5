package dev.portico.control.api.cache;

import dev.portico.cache.CacheRegistry;
import dev.portico.cache.LocalPurge;
import dev.portico.cache.ResponseStore;
import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.replicas.PurgeBroadcast;
import dev.portico.vhost.VhostSpec;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.telemetry.stats.LiveStats;
import dev.portico.telemetry.stats.StatsAggregator;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads and purges vhost caches. Works from the routing snapshot and the in-memory stores, so purging still works
 * while PostgreSQL is down; a purge is also sent to the other replicas when the database is reachable.
 */
@Singleton
public class CacheService {

    private final SnapshotHolder snapshots;
    private final CacheRegistry caches;
    private final StatsAggregator stats;
    private final LocalPurge local;
    private final PurgeBroadcast broadcast;

    public CacheService(SnapshotHolder snapshots, CacheRegistry caches, StatsAggregator stats, LocalPurge local,
                        PurgeBroadcast broadcast) {
        this.snapshots = snapshots;
        this.caches = caches;
        this.stats = stats;
        this.local = local;
        this.broadcast = broadcast;
    }

    public CacheView view(UUID id) {
        VhostSpec vhost = vhost(id);
        ResponseStore store = caches.store(id);
        Map<String, Long> counts = Map.of();
        for (LiveStats.VhostLiveStats v : stats.latest().vhosts()) {
            if (v.vhost().equals(vhost.name())) {
                counts = v.cache();
            }
        }
        long hits = counts.getOrDefault("hit", 0L);
        long stale = counts.getOrDefault("stale", 0L);
        long revalidated = counts.getOrDefault("revalidated", 0L);
        long collapsed = counts.getOrDefault("collapsed", 0L);
        long misses = counts.getOrDefault("miss", 0L);
        long served = hits + stale + revalidated + collapsed;
        double ratio = served + misses == 0 ? 0 : Math.round(10_000.0 * served / (served + misses)) / 10_000.0;
        if (store != null) {
            store.cleanUp();
        }
        return new CacheView(id, vhost.name(), store != null, store == null ? 0 : store.entries(),
                store == null ? 0 : store.weightedBytes(), store == null ? 0 : store.bodyBytes(),
                store == null ? 0 : store.maxBytes(), store == null ? 0 : store.evictions(), hits, stale,
                revalidated, collapsed, misses, counts.getOrDefault("bypass", 0L), ratio);
    }

    /**
     * @param path an exact path (with query: that exact target; without: that path with any query)
     * @param prefix a path prefix
     */
    public PurgeResult purge(UUID id, String path, String prefix) {
        vhost(id);
        if (path != null && prefix != null) {
            throw new ApiProblem(400, "validation", "Invalid request", "Give either path or prefix, not both",
                    List.of(new FieldError("path", "cannot be combined with prefix"),
                            new FieldError("prefix", "cannot be combined with path")));
        }
        if (path != null && !path.startsWith("/")) {
            throw ApiProblem.invalid("path", "must start with /");
        }
        if (prefix != null && !prefix.startsWith("/")) {
            throw ApiProblem.invalid("prefix", "must start with /");
        }
        String notification = broadcast.payload(id, path, prefix);
        if (notification == null) {
            throw ApiProblem.invalid(path != null ? "path" : "prefix", "too long to send to the other replicas "
                    + "(at most about 7900 bytes in UTF-8)");
        }
        int purged = local.purge(id, path, prefix);
        return new PurgeResult(purged, broadcast.send(notification));
    }

    private VhostSpec vhost(UUID id) {
        for (VhostSpec vhost : snapshots.current().specs()) {
            if (vhost.id().equals(id)) {
                return vhost;
            }
        }
        throw ApiProblem.notFound("No vhost with id " + id);
    }
}
