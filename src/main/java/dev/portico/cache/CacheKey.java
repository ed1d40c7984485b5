package dev.portico.cache;

import java.util.List;
import java.util.Locale;

/**
 * The key a response is stored under within its vhost's store: the authority as the client sent it, lower-cased
 * (a wildcard vhost serves many hosts), then the path and query, minus the query parameters the vhost ignores.
 */
public final class CacheKey {

    private CacheKey() {
    }

    public static String of(String authority, String pathAndQuery, List<String> ignoredParams) {
        String path = ignoredParams.isEmpty() ? pathAndQuery : withoutParams(pathAndQuery, ignoredParams);
        return authority.toLowerCase(Locale.ROOT).concat(path);
    }


    /** Where the path and query of a key start: after the authority, which holds no {@code /}. */
    public static int targetStart(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? key.length() : slash;
    }

    static String withoutParams(String pathAndQuery, List<String> ignored) {
        int q = pathAndQuery.indexOf('?');
        if (q < 0) {
            return pathAndQuery;
        }
        StringBuilder out = new StringBuilder(pathAndQuery.length()).append(pathAndQuery, 0, q);
        char separator = '?';
        int at = q + 1;
        while (at <= pathAndQuery.length()) {
            int end = pathAndQuery.indexOf('&', at);
            if (end < 0) {
                end = pathAndQuery.length();
            }
            if (end > at && !isIgnored(pathAndQuery, at, end, ignored)) {
                out.append(separator).append(pathAndQuery, at, end);
                separator = '&';
            }
            at = end + 1;
        }
        return out.toString();
    }

    private static boolean isIgnored(String s, int from, int to, List<String> ignored) {
        int eq = s.indexOf('=', from);
        int nameEnd = eq < 0 || eq > to ? to : eq;
        for (String name : ignored) {
            if (name.length() == nameEnd - from && s.regionMatches(from, name, 0, name.length())) {
                return true;
            }
        }
        return false;
    }
}
