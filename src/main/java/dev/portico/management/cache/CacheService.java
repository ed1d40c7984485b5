package dev.portico.management.cache;

import dev.portico.cache.CacheRegistry;
import dev.portico.cache.ResponseStore;
import dev.portico.config.CompiledVhost;
import dev.portico.config.SnapshotHolder;
import dev.portico.dataplane.stage.cache.CacheKey;
import dev.portico.management.error.ApiProblem;
import dev.portico.stats.LiveStats;
import dev.portico.stats.StatsAggregator;
import jakarta.inject.Singleton;

import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Reads and purges vhost caches. Works from the routing snapshot and the in-memory stores only, so purging still
 * works while PostgreSQL is down.
 */
@Singleton
public class CacheService {

    private final SnapshotHolder snapshots;
    private final CacheRegistry caches;
    private final StatsAggregator stats;

    public CacheService(SnapshotHolder snapshots, CacheRegistry caches, StatsAggregator stats) {
        this.snapshots = snapshots;
        this.caches = caches;
        this.stats = stats;
    }

    public CacheView view(UUID id) {
        CompiledVhost vhost = vhost(id);
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
            throw ApiProblem.invalid("prefix", "give either path or prefix, not both");
        }
        if (path != null && !path.startsWith("/")) {
            throw ApiProblem.invalid("path", "must start with /");
        }
        if (prefix != null && !prefix.startsWith("/")) {
            throw ApiProblem.invalid("prefix", "must start with /");
        }
        ResponseStore store = caches.store(id);
        if (store == null) {
            return new PurgeResult(0);
        }
        return new PurgeResult(store.purge(matcher(path, prefix)));
    }

    /** Keys are the authority followed by the path and query; purges match on the path part, for every host. */
    static Predicate<String> matcher(String path, String prefix) {
        if (path != null) {
            boolean withQuery = path.indexOf('?') >= 0;
            return key -> {
                String target = key.substring(CacheKey.targetStart(key));
                if (withQuery) {
                    return target.equals(path);
                }
                int q = target.indexOf('?');
                return (q < 0 ? target : target.substring(0, q)).equals(path);
            };
        }
        if (prefix != null) {
            return key -> key.startsWith(prefix, CacheKey.targetStart(key));
        }
        return key -> true;
    }

    private CompiledVhost vhost(UUID id) {
        for (CompiledVhost vhost : snapshots.current().vhosts()) {
            if (vhost.spec().id().equals(id)) {
                return vhost;
            }
        }
        throw ApiProblem.notFound("No vhost with id " + id);
    }
}
