package dev.portico.cache.rules;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;

/**
 * Whether a shared cache may store a response (RFC 9111 section 3), with the reason when it may not. The reasons
 * are sf-tokens for the {@code detail} parameter of {@code Cache-Status} ({@link CacheStatus}).
 */
public final class Storability {

    /** The response may be stored. */
    public static final Verdict STORABLE = new Verdict(true, null);

    private static final Verdict METHOD = new Verdict(false, "method");
    private static final Verdict NO_STORE = new Verdict(false, "no-store");
    private static final Verdict PRIVATE = new Verdict(false, "private");
    private static final Verdict AUTHORIZATION = new Verdict(false, "authorization");
    private static final Verdict VARY_STAR = new Verdict(false, "vary-star");
    private static final Verdict STATUS = new Verdict(false, "status");
    private static final Verdict SET_COOKIE = new Verdict(false, "set-cookie");
    private static final Verdict NO_FRESHNESS = new Verdict(false, "no-freshness");

    /**
     * @param storable whether the response may be stored
     * @param reason null when storable; otherwise one of {@code method}, {@code no-store}, {@code private},
     *     {@code authorization}, {@code vary-star}, {@code status}, {@code set-cookie}, {@code no-freshness}
     */
    public record Verdict(boolean storable, String reason) {
    }

    private Storability() {
    }

    /**
     * Checks, in this order, and answers with the first rule that refuses:
     * <ol>
     *   <li>{@code method}: only GET responses are stored (HEAD is answered from them by the caller).
     *   <li>{@code no-store} in the request or the response. With {@code must-understand} the response's
     *       {@code no-store} is ignored when Portico understands the status (section 5.2.2.3): the origin sends
     *       both so that caches that do not know the status code stay away, and Portico is not one of those.
     *   <li>{@code private} in the response (a shared cache, section 5.2.2.7).
     *   <li>{@code authorization}: the request carries {@code Authorization} and the response has none of
     *       {@code public}, {@code s-maxage} or {@code must-revalidate} (section 3.5).
     *   <li>{@code vary-star}: {@code Vary: *} can never match a later request (section 4.1).
     *   <li>{@code status}: a status never stored (1xx, 206 because only complete responses are stored, 304,
     *       anything outside 200..599), or {@code must-understand} with a status Portico does not understand
     *       (such a response is refused even without {@code no-store}).
     *   <li>{@code set-cookie}: a response setting a cookie is someone's session, whatever its directives say;
     *       nginx and Varnish refuse them too.
     *   <li>{@code no-freshness}: a status that is not heuristically cacheable (RFC 9110 section 15.1), such as 302,
     *       307 or 500, without explicit freshness ({@code s-maxage}, {@code max-age} or {@code Expires}) or
     *       {@code public} (section 3: {@code public} allows a heuristic lifetime).
     * </ol>
     * {@code no-cache} does not prevent storing: it requires revalidation on every use ({@link Freshness}).
     */
    public static Verdict check(HttpMethod method, int status, MultiMap requestHeaders, MultiMap responseHeaders,
                                CacheControl responseCc, CacheControl requestCc) {
        if (method != HttpMethod.GET) {
            return METHOD;
        }
        boolean understood = Statuses.understood(status);
        if (requestCc.noStore() || responseCc.noStore() && !(responseCc.mustUnderstand() && understood)) {
            return NO_STORE;
        }
        if (responseCc.isPrivate()) {
            return PRIVATE;
        }
        if (requestHeaders.contains(HttpHeaderNames.AUTHORIZATION) && !responseCc.isPublic()
                && responseCc.sMaxAge() < 0 && !responseCc.mustRevalidate()) {
            return AUTHORIZATION;
        }
        if (VaryKey.hasStar(responseHeaders)) {
            return VARY_STAR;
        }
        if (Statuses.neverStored(status) || responseCc.mustUnderstand() && !understood) {
            return STATUS;
        }
        if (responseHeaders.contains(HttpHeaderNames.SET_COOKIE)) {
            return SET_COOKIE;
        }
        if (!Statuses.heuristicallyCacheable(status) && !responseCc.hasLifetime() && !responseCc.isPublic()
                && !responseHeaders.contains(HttpHeaderNames.EXPIRES)) {
            return NO_FRESHNESS;
        }
        return STORABLE;
    }
}
