package dev.portico.cache.rules;

import dev.portico.http.syntax.FieldSyntax;
import dev.portico.http.syntax.HttpDate;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

/**
 * Freshness and age of a stored response (RFC 9111 section 4.2) and what to do with it for a request: serve it,
 * serve it while revalidating in the background (RFC 5861), or revalidate first. All times are epoch
 * milliseconds; all durations milliseconds unless a name says seconds.
 */
public final class Freshness {

    /** How a stored response may be used for a request. */
    public enum Use {
        /** Serve as is: fresh, or stale within what the client accepts with {@code max-stale}. */
        FRESH,
        /** Serve as is and revalidate in the background: stale, within its {@code stale-while-revalidate} window. */
        STALE_WHILE_REVALIDATE,
        /** Forward a conditional request first (and use the response, or the stored one on 304). */
        MUST_REVALIDATE
    }

    /**
     * The verdict for one request.
     *
     * @param staleIfErrorMillis how long past its expiry the stored response may still be served when the origin
     *     fails (RFC 5861 section 4); compare with the staleness, {@code currentAge - lifetime}. 0 when the
     *     response forbids serving it stale
     */
    public record Decision(Use use, long staleIfErrorMillis) {
    }

    private Freshness() {
    }

    /**
     * The freshness lifetime a shared cache gives a response, for a response with a valid {@code Date}. Without
     * one, {@code Expires} counts as already expired and the heuristic cannot use {@code Last-Modified}; prefer
     * {@link #lifetimeMillis(int, MultiMap, CacheControl, long, long)}, which falls back to the response time.
     */
    public static long lifetimeMillis(int status, MultiMap responseHeaders, CacheControl responseCc,
                                      long heuristicCapMillis) {
        return lifetime(status, responseHeaders, responseCc, heuristicCapMillis, HttpDate.INVALID);
    }

    /**
     * The freshness lifetime a shared cache gives a response (RFC 9111 section 4.2.1), first match wins:
     * <ol>
     *   <li>{@code s-maxage}, then {@code max-age} (an invalid value already counts as 0, see {@link CacheControl});
     *   <li>{@code Expires} minus {@code Date}, or minus {@code responseTimeMillis} when {@code Date} is absent or
     *       invalid (RFC 9110 section 6.6.1: a recipient supplies the missing date as its receipt time). An invalid
     *       {@code Expires}, such as {@code 0}, or conflicting repeated ones mean already expired: 0;
     *   <li>a heuristic (section 4.2.2), only for a heuristically cacheable status or a {@code public} response:
     *       10% of the time between {@code Last-Modified} and {@code Date}, as nginx, Squid and the RFC suggest,
     *       capped at {@code heuristicCapMillis}; a {@code Last-Modified} later than {@code Date} gives 0. Without
     *       a usable {@code Last-Modified} (absent, invalid, or no date to measure from) the lifetime is
     *       {@code heuristicCapMillis} itself: the vhost's default TTL, where 0 disables heuristic caching;
     *   <li>otherwise 0.
     * </ol>
     */
    public static long lifetimeMillis(int status, MultiMap responseHeaders, CacheControl responseCc,
                                      long heuristicCapMillis, long responseTimeMillis) {
        return lifetime(status, responseHeaders, responseCc, heuristicCapMillis, responseTimeMillis);
    }

    private static long lifetime(int status, MultiMap headers, CacheControl cc, long cap, long fallbackDate) {
        if (cc.sMaxAge() >= 0) {
            return cc.sMaxAge() * 1000;
        }
        if (cc.maxAge() >= 0) {
            return cc.maxAge() * 1000;
        }
        long date = HttpDate.field(headers, HttpHeaderNames.DATE);
        if (date == HttpDate.INVALID) {
            date = fallbackDate;
        }
        if (headers.contains(HttpHeaderNames.EXPIRES)) {
            long expires = HttpDate.field(headers, HttpHeaderNames.EXPIRES);
            if (expires == HttpDate.INVALID || date == HttpDate.INVALID) {
                return 0;
            }
            return Math.max(0, expires - date);
        }
        if (!Statuses.heuristicallyCacheable(status) && !cc.isPublic()) {
            return 0;
        }
        long heuristicCap = Math.max(0, cap);
        long lastModified = HttpDate.field(headers, HttpHeaderNames.LAST_MODIFIED);
        if (lastModified == HttpDate.INVALID || date == HttpDate.INVALID) {
            return heuristicCap;
        }
        return Math.min(heuristicCap, Math.max(0, date - lastModified) / 10);
    }

    /**
     * The age a response already had when it arrived (RFC 9111 section 4.2.3): the larger of the apparent age
     * ({@code responseTime - Date}, 0 without a valid {@code Date} or when the origin's clock is ahead) and the
     * {@code Age} value plus the time the request took. An invalid {@code Age} is ignored, a list such as
     * {@code 7200, 0} counts as its first member when that is delta-seconds, and of several {@code Age} fields
     * only the first counts.
     */
    public static long correctedInitialAgeMillis(MultiMap responseHeaders, long requestTimeMillis,
                                                 long responseTimeMillis) {
        long date = HttpDate.field(responseHeaders, HttpHeaderNames.DATE);
        long apparentAge = date == HttpDate.INVALID ? 0 : Math.max(0, responseTimeMillis - date);
        long responseDelay = Math.max(0, responseTimeMillis - requestTimeMillis);
        return Math.max(apparentAge, ageSeconds(responseHeaders) * 1000 + responseDelay);
    }

    /** The current age of a stored response (RFC 9111 section 4.2.3); a clock that went backwards adds nothing. */
    public static long currentAgeMillis(long correctedInitialAgeMillis, long responseTimeMillis, long nowMillis) {
        return correctedInitialAgeMillis + Math.max(0, nowMillis - responseTimeMillis);
    }

    /**
     * Decides how a stored response may serve a request, in this order:
     * <ol>
     *   <li>{@code no-cache} in the request or the response: revalidate (RFC 9111 section 5.2.1.4, 5.2.2.4).
     *   <li>The request's {@code max-age}: older than that, revalidate; compared in milliseconds, so
     *       {@code max-age=0} (a browser reload) revalidates anything with a non-zero age.
     *   <li>The request's {@code min-fresh}: less fresh time left than that, revalidate.
     *   <li>Fresh ({@code lifetime > age}, so an age equal to the lifetime is stale): serve.
     *   <li>Stale within the {@code stale-while-revalidate} window: serve and revalidate in the background. The
     *       response's directive wins, else {@code defaultStaleWhileRevalidateMillis}; {@code must-revalidate},
     *       {@code proxy-revalidate} and {@code no-cache} forbid it. This comes before {@code max-stale} because
     *       the client gets the same response either way and the cache gets refreshed.
     *   <li>Stale within the request's {@code max-stale}: serve, unless {@code must-revalidate},
     *       {@code proxy-revalidate} or {@code s-maxage} (which implies {@code proxy-revalidate} for a shared
     *       cache, section 5.2.2.10) forbid serving it stale.
     *   <li>Otherwise revalidate.
     * </ol>
     * {@code s-maxage} also keeps the vhost defaults from applying: section 4.2.4 forbids serving such a response
     * stale unless the origin says otherwise, and only the origin's own {@code stale-while-revalidate} or
     * {@code stale-if-error} next to {@code s-maxage} says so (the common CDN idiom
     * {@code s-maxage=60, stale-while-revalidate=30} keeps working).
     *
     * <p>{@link Decision#staleIfErrorMillis()}: the response's {@code stale-if-error}, else the request's, else
     * {@code defaultStaleIfErrorMillis}; 0 when the response has {@code must-revalidate}, {@code proxy-revalidate}
     * or {@code no-cache}, and only the response's own directive counts with {@code s-maxage}. A request's
     * {@code no-cache} or {@code max-age} does not reduce it: the client asked for revalidation, not for an error
     * when revalidation is impossible. {@code only-if-cached} is the caller's to handle (504 unless FRESH or
     * STALE_WHILE_REVALIDATE).
     */
    public static Decision evaluate(long lifetimeMillis, long currentAgeMillis, CacheControl responseCc,
                                    CacheControl requestCc, long defaultStaleWhileRevalidateMillis,
                                    long defaultStaleIfErrorMillis) {
        boolean revalidateWhenStale =
                responseCc.mustRevalidate() || responseCc.proxyRevalidate() || responseCc.noCache();
        boolean sharedLifetime = responseCc.sMaxAge() >= 0;
        long staleIfError = staleIfError(responseCc, requestCc, revalidateWhenStale, sharedLifetime,
                defaultStaleIfErrorMillis);
        if (requestCc.noCache() || responseCc.noCache()) {
            return new Decision(Use.MUST_REVALIDATE, staleIfError);
        }
        if (requestCc.maxAge() >= 0 && currentAgeMillis > requestCc.maxAge() * 1000) {
            return new Decision(Use.MUST_REVALIDATE, staleIfError);
        }
        long remaining = lifetimeMillis - currentAgeMillis;
        if (requestCc.minFresh() >= 0 && remaining < requestCc.minFresh() * 1000) {
            return new Decision(Use.MUST_REVALIDATE, staleIfError);
        }
        if (remaining > 0) {
            return new Decision(Use.FRESH, staleIfError);
        }
        long staleness = -remaining;
        if (!revalidateWhenStale) {
            long window = responseCc.staleWhileRevalidate() >= 0 ? responseCc.staleWhileRevalidate() * 1000
                    : sharedLifetime ? 0 : Math.max(0, defaultStaleWhileRevalidateMillis);
            if (staleness < window) {
                return new Decision(Use.STALE_WHILE_REVALIDATE, staleIfError);
            }
            if (!sharedLifetime && requestCc.maxStale() >= 0
                    && (requestCc.maxStale() == Long.MAX_VALUE || staleness <= requestCc.maxStale() * 1000)) {
                return new Decision(Use.FRESH, staleIfError);
            }
        }
        return new Decision(Use.MUST_REVALIDATE, staleIfError);
    }

    private static long staleIfError(CacheControl responseCc, CacheControl requestCc, boolean revalidateWhenStale,
                                     boolean sharedLifetime, long defaultMillis) {
        if (revalidateWhenStale) {
            return 0;
        }
        if (responseCc.staleIfError() >= 0) {
            return responseCc.staleIfError() * 1000;
        }
        if (sharedLifetime) {
            return 0;
        }
        if (requestCc.staleIfError() >= 0) {
            return requestCc.staleIfError() * 1000;
        }
        return Math.max(0, defaultMillis);
    }

    /**
     * The {@code Age} field in seconds; 0 when absent or invalid. A value that is a list ({@code Age: 7200, 0},
     * from an intermediary that appended instead of replacing) counts as its first member when that is valid
     * delta-seconds: RFC 9111 section 5.1 says a cache SHOULD ignore such a field, but the first member is the
     * age the nearest cache reported, and ignoring it would let an old response pass as new. Empty list elements
     * are skipped (RFC 9110 section 5.6.1); a first member that is not delta-seconds ({@code -5}, {@code 1.5},
     * {@code abc}) ignores the whole field. Of several {@code Age} field lines only the first counts.
     */
    private static long ageSeconds(MultiMap headers) {
        String age = headers.get(HttpHeaderNames.AGE);
        if (age == null) {
            return 0;
        }
        int n = age.length();
        int start = FieldSyntax.skipOws(age, 0);
        while (start < n && age.charAt(start) == ',') {
            start = FieldSyntax.skipOws(age, start + 1);
        }
        int end = start;
        while (end < n && age.charAt(end) != ',') {
            end++;
        }
        long seconds = FieldSyntax.deltaSeconds(age, start, FieldSyntax.trimEnd(age, start, end));
        return seconds < 0 ? 0 : seconds;
    }
}
