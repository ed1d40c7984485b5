package dev.portico.proxy.cors;

import dev.portico.vhost.CorsSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A {@link CorsSpec} compiled for the request path: exact origins in a set, wildcard origins as a scheme, a suffix
 * and a port, and the preflight's answer fields joined once. Immutable; shared by every event loop.
 */
final class CorsPolicy {

    private static final String ANY = "*";
    /** Methods a browser sends cross-origin without asking (Fetch's CORS-safelisted methods). */
    private static final Set<String> SAFELISTED_METHODS = Set.of("GET", "HEAD", "POST");
    private static final String AUTHORIZATION = "authorization";

    private final boolean anyOrigin;
    private final Set<String> origins = new HashSet<>();
    private final List<WildcardOrigin> wildcards = new ArrayList<>();
    private final boolean anyMethod;
    private final Set<String> methods;
    private final boolean anyHeader;
    private final Set<String> headers = new HashSet<>();
    private final String allowMethods;
    private final String allowHeaders;
    private final String exposeHeaders;
    private final boolean credentials;
    private final String maxAge;

    /** {@code *.example.com} with its scheme and port: the origin's host must end in {@code .example.com}. */
    private record WildcardOrigin(String scheme, String dotSuffix, String port) {
        boolean matches(String origin) {
            if (!origin.startsWith(scheme)) {
                return false;
            }
            int colon = origin.indexOf(':', scheme.length());
            // An IPv6 literal has colons too, but a wildcard never matches one: its host ends in a name.
            String host = colon < 0 ? origin.substring(scheme.length()) : origin.substring(scheme.length(), colon);
            String originPort = colon < 0 ? "" : origin.substring(colon);
            return host.length() > dotSuffix.length() && host.endsWith(dotSuffix) && originPort.equals(port)
                    && host.charAt(0) != '.';
        }
    }

    CorsPolicy(CorsSpec spec) {
        anyOrigin = spec.allowOrigins().contains(ANY);
        for (String origin : spec.allowOrigins()) {
            int star = origin.indexOf("://*.");
            if (star >= 0) {
                String scheme = origin.substring(0, star + 3);
                String rest = origin.substring(star + 4);
                int colon = rest.indexOf(':');
                wildcards.add(new WildcardOrigin(scheme, colon < 0 ? rest : rest.substring(0, colon),
                        colon < 0 ? "" : rest.substring(colon)));
            } else if (!origin.equals(ANY)) {
                origins.add(origin);
            }
        }
        anyMethod = spec.allowMethods().contains(ANY);
        methods = Set.copyOf(spec.allowMethods());
        anyHeader = spec.allowHeaders().contains(ANY);
        for (String header : spec.allowHeaders()) {
            headers.add(header.toLowerCase(Locale.ROOT));
        }
        allowMethods = String.join(", ", spec.allowMethods());
        allowHeaders = spec.allowHeaders().isEmpty() ? null : String.join(", ", spec.allowHeaders());
        exposeHeaders = spec.exposeHeaders().isEmpty() ? null : String.join(", ", spec.exposeHeaders());
        credentials = spec.allowCredentials();
        Duration age = spec.maxAge();
        maxAge = age == null ? null : Long.toString(age.toSeconds());
    }

    /** Whether every origin is allowed, answered with {@code *}: the answer then does not vary by origin. */
    boolean anyOrigin() {
        return anyOrigin;
    }

    /** What {@code Access-Control-Allow-Origin} says to {@code origin}: {@code *}, the origin itself, or null. */
    String allowOrigin(String origin) {
        if (anyOrigin) {
            return ANY;
        }
        String lower = origin.toLowerCase(Locale.ROOT);
        if (origins.contains(lower)) {
            return origin;
        }
        for (WildcardOrigin wildcard : wildcards) {
            if (wildcard.matches(lower)) {
                return origin;
            }
        }
        return null;
    }

    /** Whether a preflight may ask for {@code method} (case-sensitive, as methods are). */
    boolean allowsMethod(String method) {
        return anyMethod || methods.contains(method) || SAFELISTED_METHODS.contains(method);
    }

    /**
     * The first header of a preflight's {@code Access-Control-Request-Headers} that is not allowed, or null when all
     * are. {@code *} covers every name but {@code Authorization}, as in the Fetch standard.
     */
    String refusedHeader(String requested) {
        if (requested == null) {
            return null;
        }
        for (String element : requested.split(",")) {
            String name = element.trim().toLowerCase(Locale.ROOT);
            if (name.isEmpty() || headers.contains(name) || anyHeader && !name.equals(AUTHORIZATION)) {
                continue;
            }
            return element.trim();
        }
        return null;
    }

    /** The preflight's {@code Access-Control-Allow-Methods}: the list, or with {@code *} the method asked for. */
    String allowMethods(String requested) {
        return anyMethod ? requested : allowMethods;
    }

    /**
     * The preflight's {@code Access-Control-Allow-Headers}, or null: the list, or with {@code *} the names asked for,
     * which the browser then finds listed whatever its own reading of {@code *}.
     */
    String allowHeaders(String requested) {
        return anyHeader ? requested : allowHeaders;
    }

    String exposeHeaders() {
        return exposeHeaders;
    }

    boolean credentials() {
        return credentials;
    }

    /** {@code Access-Control-Max-Age} in seconds, or null to send none. */
    String maxAge() {
        return maxAge;
    }
}
