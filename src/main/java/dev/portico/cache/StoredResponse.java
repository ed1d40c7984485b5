package dev.portico.cache;

import dev.portico.cache.rules.CacheControl;
import dev.portico.cache.rules.Freshness;
import dev.portico.cache.rules.TargetedCacheControl;
import dev.portico.http.syntax.HttpDate;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One stored response (one variant of one URI): what the origin sent, when, and the freshness facts computed once
 * when it was stored. Immutable and shared by every event loop; the body is written to clients as it is.
 *
 * @param headers the end-to-end header fields as received, in order
 * @param etag the {@code ETag} value, or null
 * @param lastModifiedMillis {@code Last-Modified}, or -1
 * @param responseMillis when the response was received (RFC 9111 {@code response_time})
 * @param correctedInitialAgeMillis RFC 9111 section 4.2.3 {@code corrected_initial_age}
 * @param lifetimeMillis freshness lifetime (RFC 9111 section 4.2.1)
 * @param control the response's caching directives ({@code CDN-Cache-Control} when the origin sent it)
 * @param authorizedSharing whether it may answer requests carrying {@code Authorization} (RFC 9111 section 3.5)
 * @param varyKey the request's values of the {@code Vary} fields this variant was stored for
 */
public record StoredResponse(int status, String statusMessage, List<Map.Entry<String, String>> headers, Buffer body,
                             String etag, long lastModifiedMillis, long responseMillis, long correctedInitialAgeMillis,
                             long lifetimeMillis, CacheControl control, boolean authorizedSharing, String varyKey) {

    /**
     * Header fields a 304 must not change in a stored response (RFC 9111 section 3.2: framing and our own), and
     * {@code Vary}, which the stored variant was keyed by (and which compression may have extended).
     */
    private static final Set<String> KEPT_ON_UPDATE = Set.of("content-length", "content-encoding",
            "content-range", "transfer-encoding", "cache-status", "x-request-id", "vary");

    /**
     * A response as it is stored, with its freshness facts worked out once.
     *
     * @param heuristicCapMillis the vhost's cap on heuristic freshness ({@code defaultTtl})
     */
    public static StoredResponse of(int status, String statusMessage, MultiMap headers, Buffer body,
                                    long requestMillis, long responseMillis, boolean requestHadAuthorization,
                                    String varyKey, long heuristicCapMillis) {
        CacheControl control = controlOf(headers);
        long lifetime = Freshness.lifetimeMillis(status, headers, control, heuristicCapMillis, responseMillis);
        long initialAge = Freshness.correctedInitialAgeMillis(headers, requestMillis, responseMillis);
        // RFC 9111 section 3.5: a response to an authorized request may be reused only if it said so.
        boolean authorized = !requestHadAuthorization || control.isPublic() || control.sMaxAge() >= 0
                || control.mustRevalidate();
        return new StoredResponse(status, statusMessage, fieldsOf(headers), body, headers.get(HttpHeaders.ETAG),
                dateOf(headers.get(HttpHeaders.LAST_MODIFIED)), responseMillis, initialAge, lifetime, control,
                authorized, varyKey);
    }

    /**
     * This response updated by a 304 that validated it (RFC 9111 section 4.3.4): the 304's header fields replace
     * the stored ones of the same name, apart from framing; the body stays.
     */
    public StoredResponse refreshedBy(MultiMap notModified, long requestMillis, long responseMillis,
                                      long heuristicCapMillis) {
        MultiMap merged = headerMap();
        for (String name : notModified.names()) {
            if (!KEPT_ON_UPDATE.contains(name.toLowerCase(Locale.ROOT))) {
                merged.set(name, notModified.getAll(name));
            }
        }
        String validator = merged.get(HttpHeaders.ETAG);
        if (etag != null && etag.startsWith("W/") && validator != null && etag.equals("W/" + validator)) {
            // Stored compressed, so weakened: the origin's strong tag of the uncompressed body stays weak here.
            merged.set(HttpHeaders.ETAG, etag);
        }
        return of(status, statusMessage, merged, body, requestMillis, responseMillis, !authorizedSharing, varyKey,
                heuristicCapMillis);
    }

    /**
     * The caching directives that apply to Portico: {@code CDN-Cache-Control} (RFC 9213) when present and usable,
     * else {@code Cache-Control} (see {@link TargetedCacheControl} for what makes the targeted field unusable).
     */
    public static CacheControl controlOf(MultiMap responseHeaders) {
        if (responseHeaders.contains(TargetedCacheControl.CDN_CACHE_CONTROL)) {
            CacheControl cdn = TargetedCacheControl.parse(
                    responseHeaders.getAll(TargetedCacheControl.CDN_CACHE_CONTROL));
            if (cdn != null) {
                return cdn;
            }
        }
        return CacheControl.ofResponse(responseHeaders);
    }

    /** An HTTP-date as epoch milliseconds, parsed strictly ({@link HttpDate}); -1 when absent or invalid. */
    private static long dateOf(String value) {
        long millis = HttpDate.parse(value);
        return millis == HttpDate.INVALID ? -1 : millis;
    }

    /** Bytes this entry is charged against the budget: body, header text and a fixed overhead for the objects. */
    public int weight() {
        int w = 256 + body.length();
        for (Map.Entry<String, String> h : headers) {
            w += 48 + 2 * (h.getKey().length() + h.getValue().length());
        }
        return w;
    }

    /** The headers as a fresh map, e.g. to merge a 304's updates into. */
    public MultiMap headerMap() {
        return mapOf(headers);
    }

    /** The first value of a stored header field (case-insensitive), or null. */
    public String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    /**
     * What a client's {@code If-Modified-Since} is compared with (RFC 9111 section 4.3.2): {@code Last-Modified},
     * else {@code Date}, else when the response was received.
     */
    public long modifiedSinceBaseMillis() {
        if (lastModifiedMillis >= 0) {
            return lastModifiedMillis;
        }
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equalsIgnoreCase("date")) {
                long date = dateOf(h.getValue());
                if (date >= 0) {
                    return date;
                }
            }
        }
        return responseMillis;
    }

    /** RFC 9111 section 4.2.3 {@code current_age} at {@code nowMillis}. */
    public long ageMillis(long nowMillis) {
        return Freshness.currentAgeMillis(correctedInitialAgeMillis, responseMillis, nowMillis);
    }

    /** Header fields in their order, as an immutable list (how a stored response keeps them). */
    public static List<Map.Entry<String, String>> fieldsOf(MultiMap headers) {
        List<Map.Entry<String, String>> fields = new ArrayList<>(headers.size());
        for (Map.Entry<String, String> h : headers) {
            // Framing is the sender's: a response streamed chunked is replayed with its length.
            if (!h.getKey().equalsIgnoreCase("transfer-encoding")) {
                fields.add(Map.entry(h.getKey(), h.getValue()));
            }
        }
        return List.copyOf(fields);
    }

    /** A fresh map of header fields kept as a list. */
    public static MultiMap mapOf(List<Map.Entry<String, String>> fields) {
        MultiMap map = MultiMap.caseInsensitiveMultiMap();
        for (Map.Entry<String, String> h : fields) {
            map.add(h.getKey(), h.getValue());
        }
        return map;
    }
}
