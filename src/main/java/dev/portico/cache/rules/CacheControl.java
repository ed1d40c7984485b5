package dev.portico.cache.rules;

import dev.portico.http.syntax.FieldSyntax;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

import java.util.List;

/**
 * The directives of a message's {@code Cache-Control} header fields (RFC 9111 section 5.2, RFC 5861, RFC 8246).
 * One type serves requests and responses; a directive that does not apply to the message's direction is parsed
 * and simply never consulted.
 *
 * <p>Parsing is tolerant, the way caches in the field are: names are case-insensitive, spaces and empty list
 * elements are skipped, values may be tokens or quoted strings, and text after a value up to the next comma is
 * ignored. Unknown directives are ignored (section 5.2.3).
 *
 * <ul>
 *   <li>The qualified forms {@code no-cache="Set-Cookie"} and {@code private="X"} count as the unqualified
 *       directive. Honouring them field by field would mean storing the response and stripping the named fields
 *       when serving it; treating the whole response as {@code no-cache} or {@code private} is what section
 *       5.2.2.4 and 5.2.2.7 allow, and it can only make a shared cache store or reuse less, never leak more.</li>
 *   <li>An invalid or negative {@code max-age} or {@code s-maxage} (including one without a value) counts as 0:
 *       the response is stale (section 1.2.2 and 4.2.1). For the other numeric directives an invalid value
 *       ignores the directive, which again never lets a stale response out.</li>
 *   <li>Duplicates take the stricter value: the smallest {@code max-age}, {@code s-maxage}, {@code max-stale},
 *       {@code stale-while-revalidate} and {@code stale-if-error}, the largest {@code min-fresh} (section 4.2.1
 *       allows treating conflicting values as stale; the smallest lifetime leans that way).</li>
 *   <li>Delta-seconds larger than 2<sup>31</sup> saturate at 2147483648 (section 1.2.2).</li>
 * </ul>
 *
 * @param maxAge seconds, -1 when absent
 * @param sMaxAge seconds, -1 when absent
 * @param staleWhileRevalidate seconds, -1 when absent (RFC 5861 section 3)
 * @param staleIfError seconds, -1 when absent (RFC 5861 section 4)
 * @param maxStale seconds, -1 when absent, {@link Long#MAX_VALUE} when present without a value (any staleness)
 * @param minFresh seconds, -1 when absent
 */
public record CacheControl(boolean noStore, boolean noCache, boolean isPrivate, boolean isPublic,
                           boolean mustRevalidate, boolean proxyRevalidate, boolean noTransform,
                           boolean mustUnderstand, boolean immutable, boolean onlyIfCached,
                           long maxAge, long sMaxAge, long staleWhileRevalidate, long staleIfError,
                           long maxStale, long minFresh) {

    /** No directives at all. */
    public static final CacheControl NONE = new CacheControl(false, false, false, false, false, false, false, false,
            false, false, -1, -1, -1, -1, -1, -1);

    /** Only {@code no-cache}: what {@code Pragma: no-cache} means in a request without {@code Cache-Control}. */
    private static final CacheControl PRAGMA_NO_CACHE = new CacheControl(false, true, false, false, false, false,
            false, false, false, false, -1, -1, -1, -1, -1, -1);

    private static final long ABSENT = -1;

    /** Parses all {@code Cache-Control} field values of one message; null or empty gives {@link #NONE}. */
    public static CacheControl parse(List<String> headerValues) {
        if (headerValues == null || headerValues.isEmpty()) {
            return NONE;
        }
        Directives directives = new Directives();
        for (int i = 0, n = headerValues.size(); i < n; i++) {
            String value = headerValues.get(i);
            if (value != null) {
                directives.scan(value);
            }
        }
        return directives.build();
    }

    /** The directives of a response. */
    public static CacheControl ofResponse(MultiMap responseHeaders) {
        if (!responseHeaders.contains(HttpHeaderNames.CACHE_CONTROL)) {
            return NONE;
        }
        return parse(responseHeaders.getAll(HttpHeaderNames.CACHE_CONTROL));
    }

    /**
     * The directives of a request. A request with no {@code Cache-Control} field at all but a {@code Pragma} field
     * listing {@code no-cache} is treated as {@code Cache-Control: no-cache} (RFC 9111 section 5.4); any
     * {@code Cache-Control} field, even an empty one, makes {@code Pragma} irrelevant.
     */
    public static CacheControl ofRequest(MultiMap requestHeaders) {
        if (requestHeaders.contains(HttpHeaderNames.CACHE_CONTROL)) {
            return parse(requestHeaders.getAll(HttpHeaderNames.CACHE_CONTROL));
        }
        if (requestHeaders.contains(HttpHeaderNames.PRAGMA)) {
            List<String> pragmas = requestHeaders.getAll(HttpHeaderNames.PRAGMA);
            for (int i = 0, n = pragmas.size(); i < n; i++) {
                if (Directives.listsNoCache(pragmas.get(i))) {
                    return PRAGMA_NO_CACHE;
                }
            }
        }
        return NONE;
    }

    /** Whether the message states a lifetime in {@code Cache-Control} ({@code s-maxage} or {@code max-age}). */
    public boolean hasLifetime() {
        return maxAge >= 0 || sMaxAge >= 0;
    }

    /** The mutable accumulator of one parse; never escapes {@link #parse}. */
    private static final class Directives {
        boolean noStore, noCache, isPrivate, isPublic, mustRevalidate, proxyRevalidate, noTransform, mustUnderstand,
                immutable, onlyIfCached, any;
        long maxAge = ABSENT, sMaxAge = ABSENT, staleWhileRevalidate = ABSENT, staleIfError = ABSENT,
                maxStale = ABSENT, minFresh = ABSENT;

        void scan(String s) {
            int i = 0;
            int n = s.length();
            while (i < n) {
                char c = s.charAt(i);
                if (c == ',' || FieldSyntax.isOws(c)) {
                    i++;
                    continue;
                }
                int nameStart = i;
                while (i < n && (c = s.charAt(i)) != '=' && c != ',' && !FieldSyntax.isOws(c)) {
                    i++;
                }
                int nameEnd = i;
                i = FieldSyntax.skipOws(s, i);
                int valueStart = -1;
                int valueEnd = -1;
                if (i < n && s.charAt(i) == '=') {
                    i = FieldSyntax.skipOws(s, i + 1);
                    if (i < n && s.charAt(i) == '"') {
                        valueStart = ++i;
                        while (i < n && (c = s.charAt(i)) != '"') {
                            i += c == '\\' ? 2 : 1;
                        }
                        valueEnd = Math.min(i, n);
                    } else {
                        valueStart = i;
                        while (i < n && (c = s.charAt(i)) != ',' && !FieldSyntax.isOws(c)) {
                            i++;
                        }
                        valueEnd = i;
                    }
                }
                while (i < n && s.charAt(i) != ',') {
                    i++;
                }
                any |= apply(s, nameStart, nameEnd - nameStart, valueStart, valueEnd);
            }
        }

        /** Records one directive; false when the name is not one Portico knows. */
        private boolean apply(String s, int start, int length, int valueStart, int valueEnd) {
            long seconds = FieldSyntax.deltaSeconds(s, valueStart, valueEnd);
            // Switching on the length first keeps the case-insensitive comparisons to one or two per directive.
            switch (length) {
                case 6:
                    if (is(s, start, "public")) {
                        isPublic = true;
                        return true;
                    }
                    return false;
                case 7:
                    if (is(s, start, "private")) {
                        isPrivate = true;
                        return true;
                    }
                    if (is(s, start, "max-age")) {
                        maxAge = smallest(maxAge, lifetime(seconds));
                        return true;
                    }
                    return false;
                case 8:
                    if (is(s, start, "no-store")) {
                        noStore = true;
                        return true;
                    }
                    if (is(s, start, "no-cache")) {
                        noCache = true;
                        return true;
                    }
                    if (is(s, start, "s-maxage")) {
                        sMaxAge = smallest(sMaxAge, lifetime(seconds));
                        return true;
                    }
                    return false;
                case 9:
                    if (is(s, start, "immutable")) {
                        immutable = true;
                        return true;
                    }
                    if (is(s, start, "max-stale")) {
                        maxStale = smallestValid(maxStale, valueStart < 0 ? Long.MAX_VALUE : seconds);
                        return true;
                    }
                    if (is(s, start, "min-fresh")) {
                        minFresh = Math.max(minFresh, seconds);
                        return true;
                    }
                    return false;
                case 12:
                    if (is(s, start, "no-transform")) {
                        noTransform = true;
                        return true;
                    }
                    return false;
                case 14:
                    if (is(s, start, "only-if-cached")) {
                        onlyIfCached = true;
                        return true;
                    }
                    if (is(s, start, "stale-if-error")) {
                        staleIfError = smallestValid(staleIfError, seconds);
                        return true;
                    }
                    return false;
                case 15:
                    if (is(s, start, "must-revalidate")) {
                        mustRevalidate = true;
                        return true;
                    }
                    if (is(s, start, "must-understand")) {
                        mustUnderstand = true;
                        return true;
                    }
                    return false;
                case 16:
                    if (is(s, start, "proxy-revalidate")) {
                        proxyRevalidate = true;
                        return true;
                    }
                    return false;
                case 22:
                    if (is(s, start, "stale-while-revalidate")) {
                        staleWhileRevalidate = smallestValid(staleWhileRevalidate, seconds);
                        return true;
                    }
                    return false;
                default:
                    return false;
            }
        }

        CacheControl build() {
            if (!any) {
                return NONE;
            }
            return new CacheControl(noStore, noCache, isPrivate, isPublic, mustRevalidate, proxyRevalidate,
                    noTransform, mustUnderstand, immutable, onlyIfCached, maxAge, sMaxAge, staleWhileRevalidate,
                    staleIfError, maxStale, minFresh);
        }

        /** Whether a {@code Pragma} value lists {@code no-cache}, case-insensitively, among its elements. */
        static boolean listsNoCache(String value) {
            int n = value.length();
            int i = 0;
            while (i < n) {
                i = FieldSyntax.skipOws(value, i);
                int start = i;
                while (i < n && value.charAt(i) != ',') {
                    i++;
                }
                int end = FieldSyntax.trimEnd(value, start, i);
                if (end - start == 8 && value.regionMatches(true, start, "no-cache", 0, 8)) {
                    return true;
                }
                i++;
            }
            return false;
        }

        private static boolean is(String s, int start, String name) {
            return s.regionMatches(true, start, name, 0, name.length());
        }

        /** A lifetime directive: invalid or missing means "already stale" rather than "absent". */
        private static long lifetime(long seconds) {
            return seconds == FieldSyntax.INVALID_DELTA ? 0 : seconds;
        }

        private static long smallest(long current, long candidate) {
            return current < 0 ? candidate : Math.min(current, candidate);
        }

        private static long smallestValid(long current, long candidate) {
            return candidate == FieldSyntax.INVALID_DELTA ? current : smallest(current, candidate);
        }
    }
}
