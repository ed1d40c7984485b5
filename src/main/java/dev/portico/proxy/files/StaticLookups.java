package dev.portico.proxy.files;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.portico.proxy.core.RuntimeKey;
import dev.portico.proxy.files.offloop.Lookup;

/**
 * A static vhost's file lookups (found, missing, redirect, listing, with held small files), kept across snapshots
 * ({@link dev.portico.proxy.core.VhostRuntime}) while the vhost's static settings stay the same: an edit of another
 * vhost must not send every hot path of this one back to the disk.
 */
public final class StaticLookups {

    public static final RuntimeKey<StaticLookups> KEY = RuntimeKey.create("static-lookups", StaticLookups.class);

    /** A lookup and when the disk was asked for it. */
    record Checked(Lookup lookup, long atNanos) {
    }

    final Cache<String, Checked> cache = Caffeine.newBuilder()
            .expireAfterAccess(StaticFilesStage.LOOKUP_INACTIVE)
            .maximumWeight(StaticFilesStage.LOOKUP_CACHE_BYTES)
            .weigher((String path, Checked checked) -> checked.lookup().weight() + 2 * path.length())
            .build();

    /** Whether a lookup of this decoded path is held (for diagnostics and tests). */
    public boolean holds(String path) {
        return cache.getIfPresent(path) != null;
    }
}
