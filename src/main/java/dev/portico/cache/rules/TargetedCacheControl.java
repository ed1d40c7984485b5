package dev.portico.cache.rules;

import dev.portico.http.syntax.FieldSyntax;
import dev.portico.http.syntax.StructuredDictionary;

import java.util.List;
import java.util.Map;

/**
 * The directives of a targeted cache-control field (RFC 9213), here {@code CDN-Cache-Control}: a Structured Field
 * Dictionary (RFC 8941) whose members are response cache directives. When usable it replaces {@code Cache-Control}
 * for the cache it targets; when not, the cache behaves as if it were absent, so {@code Cache-Control} applies.
 *
 * <p>Not usable, and so ignored as a whole (RFC 9213 section 2.1):
 * <ul>
 *   <li>an empty field, or one that is not a valid Dictionary ({@code max-age=10000, &&&&&}, an upper-case key,
 *       a trailing comma);</li>
 *   <li>a directive Portico knows with a value of the wrong type: RFC 9213 says implementations SHOULD NOT consume
 *       values that violate the directive's inferred type, giving a {@code max-age} coerced from a Decimal as the
 *       example of what breaks interoperability. The lifetimes ({@code max-age}, {@code s-maxage},
 *       {@code stale-while-revalidate}, {@code stale-if-error}) must be non-negative Integers, so
 *       {@code max-age="10000"}, {@code max-age=1.5} and {@code max-age=-1} qualify; {@code no-store},
 *       {@code public}, {@code must-revalidate}, {@code proxy-revalidate}, {@code no-transform},
 *       {@code must-understand} and {@code immutable} must be a bare key (Boolean true); {@code no-cache} and
 *       {@code private} a bare key or a String (their field-name list). Ignoring only the one member instead would
 *       leave a field that says nothing about freshness yet still overrides {@code Cache-Control}: the response
 *       would lose the lifetime its origin clearly meant to give, and half-applied instructions are worse than
 *       the ones meant for every cache.</li>
 * </ul>
 * Directives Portico does not know, whatever their type, are ignored (RFC 9111 section 5.2.3), as are parameters
 * on any directive (RFC 9213 section 2.1) and request-only directives. So {@code CDN-Cache-Control: none}, the
 * RFC's idiom for "no directives for CDNs", is a usable field that gives a response no directives. Unlike in
 * {@code Cache-Control}, a repeated directive takes its last value, as a Dictionary does (RFC 8941 section 4.2.2).
 * {@code no-cache="Set-Cookie"} and {@code private="X"} count as unqualified, as in {@link CacheControl}.
 */
public final class TargetedCacheControl {

    /** The header field that targets CDNs, and so Portico, a reverse proxy in the CDN's place (RFC 9213 section 3). */
    public static final String CDN_CACHE_CONTROL = "CDN-Cache-Control";

    private TargetedCacheControl() {
    }

    /**
     * The directives of a targeted field's lines, or null when the field is absent, empty or not usable (see the
     * class description), meaning {@code Cache-Control} applies.
     */
    public static CacheControl parse(List<String> fieldLines) {
        Map<String, StructuredDictionary.Value> members = StructuredDictionary.parse(fieldLines);
        if (members == null || members.isEmpty()) {
            return null;
        }
        Directives d = new Directives();
        for (Map.Entry<String, StructuredDictionary.Value> member : members.entrySet()) {
            if (!d.apply(member.getKey(), member.getValue())) {
                return null;
            }
        }
        return new CacheControl(d.noStore, d.noCache, d.isPrivate, d.isPublic, d.mustRevalidate, d.proxyRevalidate,
                d.noTransform, d.mustUnderstand, d.immutable, false, d.maxAge, d.sMaxAge, d.staleWhileRevalidate,
                d.staleIfError, -1, -1);
    }

    /** The accumulator of one parse. */
    private static final class Directives {
        boolean noStore, noCache, isPrivate, isPublic, mustRevalidate, proxyRevalidate, noTransform, mustUnderstand,
                immutable;
        long maxAge = -1, sMaxAge = -1, staleWhileRevalidate = -1, staleIfError = -1;

        /** Records one member; false when a known directive has a value of the wrong type. */
        boolean apply(String name, StructuredDictionary.Value value) {
            switch (name) {
                case "max-age":
                    return (maxAge = seconds(value)) >= 0;
                case "s-maxage":
                    return (sMaxAge = seconds(value)) >= 0;
                case "stale-while-revalidate":
                    return (staleWhileRevalidate = seconds(value)) >= 0;
                case "stale-if-error":
                    return (staleIfError = seconds(value)) >= 0;
                case "no-store":
                    return noStore = value.isTrue();
                case "public":
                    return isPublic = value.isTrue();
                case "must-revalidate":
                    return mustRevalidate = value.isTrue();
                case "proxy-revalidate":
                    return proxyRevalidate = value.isTrue();
                case "no-transform":
                    return noTransform = value.isTrue();
                case "must-understand":
                    return mustUnderstand = value.isTrue();
                case "immutable":
                    return immutable = value.isTrue();
                case "no-cache":
                    return noCache = trueOrFieldNames(value);
                case "private":
                    return isPrivate = trueOrFieldNames(value);
                default:
                    return true;
            }
        }

        /** A non-negative Integer, saturated as delta-seconds are (RFC 9111 section 1.2.2); -1 for anything else. */
        private static long seconds(StructuredDictionary.Value value) {
            if (value.kind() != StructuredDictionary.Kind.INTEGER || value.integer() < 0) {
                return -1;
            }
            return Math.min(value.integer(), FieldSyntax.MAX_DELTA_SECONDS);
        }

        private static boolean trueOrFieldNames(StructuredDictionary.Value value) {
            return value.isTrue() || value.kind() == StructuredDictionary.Kind.STRING;
        }
    }
}
