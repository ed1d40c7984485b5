package dev.portico.cache;

import jakarta.inject.Singleton;

import java.util.UUID;
import java.util.function.Predicate;

/** Removes stored responses from this process's memory, whoever asked: the API here or another replica. */
@Singleton
public class LocalPurge {

    private final CacheRegistry caches;

    public LocalPurge(CacheRegistry caches) {
        this.caches = caches;
    }

    /**
     * @param path an exact path (with query: that exact target; without: that path with any query), or null
     * @param prefix a path prefix, or null; with neither, everything
     * @return how many URIs were removed, with all their variants
     */
    public int purge(UUID vhost, String path, String prefix) {
        ResponseStore store = caches.store(vhost);
        return store == null ? 0 : store.purge(matcher(path, prefix));
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
}
