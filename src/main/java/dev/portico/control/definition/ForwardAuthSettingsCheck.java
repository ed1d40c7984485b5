package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.ForwardAuthSpec;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Validates a {@code forwardAuth} block, fills in its defaults, and turns the normal form into a spec. */
final class ForwardAuthSettingsCheck {

    static final int MAX_HEADERS = 32;
    static final List<String> DEFAULT_REQUEST_HEADERS = List.of("Authorization", "Cookie");
    private static final String DEFAULT_TIMEOUT = "2s";
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration MAX_CACHE_FOR = Duration.ofMinutes(5);
    private static final Pattern FIELD_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");
    /**
     * Fields that describe a message's framing or connection, or that Portico itself writes on the auth request: an
     * auth service's copy of them must never be spliced into the upstream request, nor a client's sent on.
     */
    private static final Set<String> RESERVED = Set.of("host", "content-length", "transfer-encoding", "connection",
            "keep-alive", "upgrade", "te", "trailer", "proxy-connection", "x-forwarded-method", "x-forwarded-uri",
            "x-forwarded-host", "x-forwarded-proto", "x-forwarded-for");

    private ForwardAuthSettingsCheck() {
    }

    /** The block with its defaults; null when there is none. */
    static ForwardAuthDefinition normalise(ForwardAuthDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        String url = url(in.url(), errors);
        List<String> copy = fields("forwardAuth.copyHeaders", in.copyHeaders(), List.of(), errors);
        List<String> send = fields("forwardAuth.requestHeaders", in.requestHeaders(), DEFAULT_REQUEST_HEADERS,
                errors);
        String timeout = DurationText.normalise("forwardAuth.timeout", in.timeout(), DEFAULT_TIMEOUT,
                Duration.ofMillis(1), MAX_TIMEOUT, errors);
        String cacheFor = DurationText.normalise("forwardAuth.cacheFor", in.cacheFor(), "0s", Duration.ZERO,
                MAX_CACHE_FOR, errors);
        return new ForwardAuthDefinition(url, copy, send, timeout, cacheFor);
    }

    private static String url(String text, List<FieldError> errors) {
        if (text == null || text.isBlank()) {
            errors.add(new FieldError("forwardAuth.url", "is required"));
            return text;
        }
        try {
            URI uri = new URI(text.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                errors.add(new FieldError("forwardAuth.url",
                        "must be an absolute http:// or https:// URL with a host, no user info and no fragment"));
            }
            return uri.toString();
        } catch (URISyntaxException e) {
            errors.add(new FieldError("forwardAuth.url", "is not a URL: " + e.getReason()));
            return text;
        }
    }

    private static List<String> fields(String field, List<String> names, List<String> defaults,
                                       List<FieldError> errors) {
        if (names == null) {
            return defaults;
        }
        if (names.size() > MAX_HEADERS) {
            errors.add(new FieldError(field, "at most " + MAX_HEADERS + " fields (has " + names.size() + ")"));
            return names;
        }
        List<String> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (name == null || !FIELD_NAME.matcher(name).matches()) {
                errors.add(new FieldError(field + "[" + i + "]", "must be a header field name (1-64 token characters)"));
            } else if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                errors.add(new FieldError(field + "[" + i + "]", "'" + name + "' is set by Portico itself"));
            } else if (out.stream().noneMatch(name::equalsIgnoreCase)) {
                out.add(name);
            }
        }
        return out;
    }

    /** For a normalised block, or null. */
    static ForwardAuthSpec toSpec(ForwardAuthDefinition stored) {
        if (stored == null) {
            return null;
        }
        return new ForwardAuthSpec(stored.url(), stored.copyHeaders(), stored.requestHeaders(),
                DurationText.parse(stored.timeout(), MAX_TIMEOUT, false),
                DurationText.parse(stored.cacheFor(), MAX_CACHE_FOR, true));
    }
}
