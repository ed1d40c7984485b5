package dev.portico.cache.rules;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an unsafe request invalidates (RFC 9111 section 4.4). The caller decides when: only for an unsafe method
 * (POST, PUT, DELETE, PATCH, ...) whose response was not an error, i.e. 2xx or 3xx; this class only says which
 * stored URIs are affected.
 */
public final class Invalidation {

    private Invalidation() {
    }

    /**
     * The path and query of every URI to invalidate: the request's own, then those of {@code Location} and
     * {@code Content-Location} when they are on the request's origin (same scheme, host and port, with default
     * ports and case ignored). Relative references resolve against the request URI; references to other origins
     * and values that are not URI references are ignored, since section 4.4 forbids invalidating another origin's
     * responses on the word of this one (that would let one host wipe another's cache). Fragments are dropped and
     * an empty path becomes {@code /}; duplicates appear once. When the request URI is not one
     * {@link java.net.URI} accepts (an unencoded {@code |}, say), nothing can be resolved or compared against it
     * and only the request's own path is returned.
     *
     * @param requestScheme {@code http} or {@code https}
     * @param requestAuthority the request's {@code host[:port]}
     * @param requestPath the request's path and query, as the cache keys it
     * @return an unmodifiable list, the request's path first
     */
    public static List<String> targets(String requestScheme, String requestAuthority, String requestPath,
                                       MultiMap responseHeaders) {
        boolean hasLocation = responseHeaders.contains(HttpHeaderNames.LOCATION);
        boolean hasContentLocation = responseHeaders.contains(HttpHeaderNames.CONTENT_LOCATION);
        if (!hasLocation && !hasContentLocation) {
            return List.of(requestPath);
        }
        List<String> targets = new ArrayList<>(3);
        targets.add(requestPath);
        URI base;
        try {
            base = new URI(requestScheme + "://" + requestAuthority + (requestPath.startsWith("/") ? "" : "/")
                    + requestPath);
        } catch (URISyntaxException e) {
            return List.of(requestPath);
        }
        if (base.getRawAuthority() == null) {
            return List.of(requestPath);
        }
        String origin = origin(base.getScheme(), base.getRawAuthority());
        if (hasLocation) {
            addSameOrigin(targets, base, origin, responseHeaders.get(HttpHeaderNames.LOCATION));
        }
        if (hasContentLocation) {
            addSameOrigin(targets, base, origin, responseHeaders.get(HttpHeaderNames.CONTENT_LOCATION));
        }
        return List.copyOf(targets);
    }

    private static void addSameOrigin(List<String> targets, URI base, String origin, String reference) {
        String text = reference.trim();
        if (text.isEmpty()) {
            return;
        }
        URI resolved;
        try {
            URI uri = new URI(text);
            // java.net.URI resolves by RFC 2396, which turns "?q" into the base's directory plus "?q"; RFC 3986
            // section 5.2.2 keeps the base path, and only the query changes.
            resolved = text.charAt(0) == '?'
                    ? new URI(base.getScheme() + "://" + base.getRawAuthority() + base.getRawPath() + '?'
                            + uri.getRawQuery())
                    : base.resolve(uri);
        } catch (URISyntaxException | IllegalArgumentException e) {
            return;
        }
        String authority = resolved.getRawAuthority();
        if (authority == null || !origin.equals(origin(resolved.getScheme(), authority))) {
            return;
        }
        String path = resolved.getRawPath() == null || resolved.getRawPath().isEmpty() ? "/" : resolved.getRawPath();
        String target = resolved.getRawQuery() == null ? path : path + '?' + resolved.getRawQuery();
        if (!targets.contains(target)) {
            targets.add(target);
        }
    }

    /** {@code scheme://host:port} in lower case, with the scheme's default port made explicit. */
    private static String origin(String scheme, String authority) {
        String s = scheme == null ? "" : scheme.toLowerCase(Locale.ROOT);
        String a = authority.toLowerCase(Locale.ROOT);
        int at = a.lastIndexOf('@');
        if (at >= 0) {
            a = a.substring(at + 1);
        }
        int colon = a.lastIndexOf(':');
        boolean hasPort = colon >= 0 && colon > a.lastIndexOf(']');
        if (hasPort && colon == a.length() - 1) {
            a = a.substring(0, colon);
            hasPort = false;
        }
        if (!hasPort) {
            a = a + (s.equals("https") ? ":443" : s.equals("http") ? ":80" : "");
        }
        return s + "://" + a;
    }
}
