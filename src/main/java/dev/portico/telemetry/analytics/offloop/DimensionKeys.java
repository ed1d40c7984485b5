package dev.portico.telemetry.analytics.offloop;

import dev.portico.http.TrustedProxies;

/**
 * How a {@link Sample} becomes the keys counted per dimension. Values are cut to a sane length first, so one
 * client sending megabyte-long paths cannot make a bucket big, and made storable (a NUL byte in a path must not
 * make PostgreSQL refuse the bucket).
 */
final class DimensionKeys {

    static final int MAX_PATH = 512;
    static final int MAX_CLIENT = 64;
    static final int MAX_AGENT = 256;
    static final int MAX_REFERRER = 512;

    private final TrustedProxies trusted;

    DimensionKeys(TrustedProxies trusted) {
        this.trusted = trusted;
    }

    /** The path without the query string, as GoAccess groups requests. */
    String path(String target) {
        if (target == null || target.isEmpty()) {
            return "/";
        }
        int query = target.indexOf('?');
        return truncate(query >= 0 ? target.substring(0, query) : target, MAX_PATH);
    }

    /**
     * The client: the peer, or behind trusted proxies the right-most {@code X-Forwarded-For} entry that is not one
     * of them (nginx {@code real_ip_recursive on}). Entries left of that were written by the client and prove nothing.
     */
    String client(String peer, String forwardedFor) {
        return truncate(trusted.forwardedClient(peer, forwardedFor), MAX_CLIENT);
    }

    /** The user agent, or {@link UserAgentClass#MISSING} when the request had none. */
    String agent(String userAgent) {
        if (userAgent == null || userAgent.isBlank()) {
            return UserAgentClass.MISSING;
        }
        return truncate(userAgent.strip(), MAX_AGENT);
    }

    /** The referrer, or null when the request had none (such requests are not counted in that dimension). */
    String referrer(String referrer) {
        if (referrer == null || referrer.isBlank()) {
            return null;
        }
        return truncate(referrer.strip(), MAX_REFERRER);
    }

    /** Cut to {@code max} characters and made {@link StorableText storable}: every key goes to PostgreSQL. */
    static String truncate(String value, int max) {
        if (value == null) {
            return "-";
        }
        if (value.length() <= max) {
            return StorableText.of(value);
        }
        // Never cut a surrogate pair in half: the key ends up in JSON.
        int end = Character.isHighSurrogate(value.charAt(max - 1)) ? max - 1 : max;
        return StorableText.of(value.substring(0, end));
    }
}
