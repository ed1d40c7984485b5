package dev.portico.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * One vhost's stored responses, bounded in bytes: Caffeine's W-TinyLFU eviction weighted by each URI's stored bytes.
 * Keys are the vhost-relative cache keys ({@code host} + normalised path and query); vhosts never share a store,
 * so one vhost's responses can never answer another's requests. Safe to use from any thread without blocking.
 */
public final class ResponseStore {

    private final Cache<String, Variants> cache;
    private final LongAdder evictions = new LongAdder();
    private volatile long maxBytes;
    private volatile String name = "";

    ResponseStore(long maxBytes) {
        this.maxBytes = maxBytes;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, Variants v) -> v.weight() + 2 * key.length())
                .evictionListener((String key, Variants v, RemovalCause cause) -> {
                    if (cause.wasEvicted()) {
                        evictions.increment();
                    }
                })
                .build();
    }

    /** Every stored variant for a key, or null. */
    public Variants get(String key) {
        return cache.getIfPresent(key);
    }

    /** Stores (or replaces) the variant of {@code key} that {@code entry} is for. */
    public void put(String key, List<String> varyFields, StoredResponse entry) {
        cache.asMap().compute(key, (k, old) -> old == null
                ? new Variants(varyFields, List.of(entry))
                : old.with(varyFields, entry));
    }

    /** Drops every variant of a key (RFC 9111 section 4.4 invalidation). */
    public void invalidate(String key) {
        cache.invalidate(key);
    }

    /** Drops every key that matches; returns how many keys went. Walks the whole store: management use only. */
    public int purge(Predicate<String> matches) {
        int purged = 0;
        for (String key : cache.asMap().keySet()) {
            if (matches.test(key) && cache.asMap().remove(key) != null) {
                purged++;
            }
        }
        return purged;
    }

    void resize(long maxBytes) {
        if (maxBytes != this.maxBytes) {
            this.maxBytes = maxBytes;
            cache.policy().eviction().ifPresent(e -> e.setMaximum(maxBytes));
        }
    }

    /** Runs pending evictions now, so sizes read next are exact (tests, management). */
    public void cleanUp() {
        cache.cleanUp();
    }

    void name(String vhost) {
        this.name = vhost;
    }

    /** The vhost's current name, for metrics. */
    public String name() {
        return name;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** URIs stored (each with one or more variants). */
    public long entries() {
        return cache.estimatedSize();
    }

    /** Bytes charged against the budget. */
    public long weightedBytes() {
        return cache.policy().eviction().flatMap(e -> e.weightedSize().stream().boxed().findFirst()).orElse(0L);
    }

    /** Response body bytes held. Walks the store: management use only. */
    public long bodyBytes() {
        long bytes = 0;
        for (Variants v : cache.asMap().values()) {
            bytes += v.bodyBytes();
        }
        return bytes;
    }

    public long evictions() {
        return evictions.sum();
    }

    void clear() {
        cache.invalidateAll();
    }
}
