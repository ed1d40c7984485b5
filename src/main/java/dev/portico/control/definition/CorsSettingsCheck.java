package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.CorsSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Validates and normalises a {@code cors} block (each bad entry named, {@code cors.allowOrigins[1]}) and turns the
 * normal form into a {@link CorsSpec}. An origin is what browsers send in {@code Origin}: scheme, host and a port
 * only when it is not the scheme's default, all lower case, so the data plane compares strings.
 */
final class CorsSettingsCheck {

    static final int MAX_ENTRIES = 100;
    static final Duration MAX_AGE = Duration.ofDays(1);
    static final String ANY = "*";
    private static final List<String> DEFAULT_METHODS = List.of("GET", "HEAD", "POST");
    private static final Pattern ORIGIN = Pattern.compile(
            "([a-z][a-z0-9+.-]*)://(\\*\\.)?([a-z0-9-]+(?:\\.[a-z0-9-]+)*|\\[[0-9a-f:.]+])(?::([0-9]{1,5}))?");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");

    private CorsSettingsCheck() {
    }

    /** The block in its normal form; null when there is none. An explicitly empty {@code allowOrigins} is "no CORS". */
    static CorsDefinition normalise(CorsDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        if (in.allowOrigins() == null) {
            errors.add(new FieldError("cors.allowOrigins", "is required (an empty list turns CORS off)"));
            return in;
        }
        boolean credentials = in.allowCredentials() != null && in.allowCredentials();
        List<String> origins = origins(in.allowOrigins(), errors);
        List<String> methods = tokens("cors.allowMethods", in.allowMethods() == null ? DEFAULT_METHODS
                : in.allowMethods(), true, errors);
        List<String> headers = tokens("cors.allowHeaders", in.allowHeaders(), false, errors);
        List<String> expose = tokens("cors.exposeHeaders", in.exposeHeaders(), false, errors);
        if (credentials) {
            // The Fetch standard reads * literally in a credentialed answer, so the browser would refuse every request.
            refuseAny("allowOrigins", origins, errors);
            refuseAny("allowMethods", methods, errors);
            refuseAny("allowHeaders", headers, errors);
            refuseAny("exposeHeaders", expose, errors);
        }
        String maxAge = in.maxAge() == null ? null
                : DurationText.normalise("cors.maxAge", in.maxAge(), null, Duration.ZERO, MAX_AGE, errors);
        return new CorsDefinition(origins, methods, headers, expose, credentials, maxAge);
    }

    private static void refuseAny(String list, List<String> entries, List<FieldError> errors) {
        if (entries.contains(ANY)) {
            errors.add(new FieldError("cors.allowCredentials",
                    "cannot be true with * in " + list + " (browsers refuse it): list them instead"));
        }
    }

    private static List<String> origins(List<String> entries, List<FieldError> errors) {
        if (BlockCheck.tooMany("cors.allowOrigins", entries, MAX_ENTRIES, errors)) {
            return entries;
        }
        List<String> out = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            String field = "cors.allowOrigins[" + i + "]";
            String entry = entries.get(i);
            if (ANY.equals(entry)) {
                if (entries.size() > 1) {
                    errors.add(new FieldError(field, "* stands alone: it already allows every origin"));
                }
                out.add(ANY);
                continue;
            }
            String origin = origin(entry);
            if (origin == null) {
                errors.add(new FieldError(field, "must be scheme://host[:port] (no path, not even /), or "
                        + "scheme://*.suffix with a suffix of two labels or more, or *"));
            } else if (!out.contains(origin)) {
                out.add(origin);
            }
        }
        return out;
    }

    /** The origin as a browser serialises it, or null when {@code entry} is not one. */
    static String origin(String entry) {
        if (entry == null) {
            return null;
        }
        Matcher m = ORIGIN.matcher(entry.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return null;
        }
        String scheme = m.group(1);
        boolean wildcard = m.group(2) != null;
        String host = m.group(3);
        if (wildcard && (host.startsWith("[") || host.indexOf('.') < 0)) {
            // *.com would let anyone who registers a name in.
            return null;
        }
        String port = m.group(4);
        if (port != null) {
            int number = Integer.parseInt(port);
            if (number < 1 || number > 65535) {
                return null;
            }
            if (scheme.equals("http") && number == 80 || scheme.equals("https") && number == 443) {
                // Browsers leave the default port out of Origin.
                port = null;
            } else {
                port = Integer.toString(number);
            }
        }
        return scheme + "://" + (wildcard ? "*." : "") + host + (port == null ? "" : ":" + port);
    }

    private static List<String> tokens(String field, List<String> entries, boolean upper, List<FieldError> errors) {
        if (entries == null) {
            return List.of();
        }
        if (BlockCheck.tooMany(field, entries, MAX_ENTRIES, errors)) {
            return entries;
        }
        List<String> out = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            if (entry == null || !TOKEN.matcher(entry).matches() || entry.contains(ANY) && !entry.equals(ANY)) {
                errors.add(new FieldError(field + "[" + i + "]", upper ? "is not a method name"
                        : "is not a header name"));
                continue;
            }
            String normal = upper ? entry.toUpperCase(Locale.ROOT) : entry;
            if (out.stream().noneMatch(normal::equalsIgnoreCase)) {
                out.add(normal);
            }
        }
        return out;
    }

    /** For a normalised block, or none. */
    static CorsSpec toSpec(CorsDefinition stored) {
        if (stored == null || stored.allowOrigins() == null || stored.allowOrigins().isEmpty()) {
            return CorsSpec.NONE;
        }
        return new CorsSpec(stored.allowOrigins(), orEmpty(stored.allowMethods()), orEmpty(stored.allowHeaders()),
                orEmpty(stored.exposeHeaders()), stored.allowCredentials() != null && stored.allowCredentials(),
                stored.maxAge() == null ? null : DurationText.parse(stored.maxAge(), MAX_AGE, true));
    }

    private static List<String> orEmpty(List<String> list) {
        return list == null ? List.of() : list;
    }
}
