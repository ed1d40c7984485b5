package dev.portico.proxy.cache;

import dev.portico.proxy.core.RuntimeKey;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A cached vhost's requests in flight, kept across snapshots ({@link dev.portico.proxy.core.VhostRuntime}): the fills
 * running by fill key, which later misses for the same key join (request collapsing), and the keys being refreshed in
 * the background. An edit of another vhost, or of this one that keeps its cache keys the same, must not make a miss
 * miss the fill already running.
 */
final class CacheRuntime {

    static final RuntimeKey<CacheRuntime> KEY = RuntimeKey.create("cache", CacheRuntime.class);

    final Map<String, Fill> fills = new ConcurrentHashMap<>();
    final Set<String> refreshing = ConcurrentHashMap.newKeySet();
}
