package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.JwtSpec;

import javax.crypto.SecretKey;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Validates a {@code jwt} block, fills in its defaults, and turns the normal form into a spec. */
final class JwtSettingsCheck {

    private static final List<String> ASYMMETRIC = List.of("RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
            "ES256", "ES384", "ES512", "EdDSA");
    private static final List<String> HMAC = List.of("HS256", "HS384", "HS512");
    private static final Duration MAX_SKEW = Duration.ofMinutes(5);
    private static final Duration MIN_REFRESH = Duration.ofSeconds(1);
    private static final Duration MAX_REFRESH = Duration.ofDays(1);
    private static final int MAX_ENTRIES = 32;
    private static final Pattern FIELD_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");
    private static final Set<String> RESERVED = Set.of("host", "authorization", "content-length",
            "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer", "cookie");

    private JwtSettingsCheck() {
    }

    static JwtDefinition normalise(JwtDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        boolean secret = false;
        if ((in.jwksUrl() == null) == (in.key() == null)) {
            errors.add(new FieldError("jwt.jwksUrl", "give exactly one of jwksUrl and key"));
        } else if (in.jwksUrl() != null) {
            jwksUrl(in.jwksUrl(), errors);
        } else {
            try {
                secret = JwtKeyText.parse(in.key()) instanceof SecretKey;
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("jwt.key", e.getMessage()));
            }
        }
        List<String> algorithms = algorithms(in.algorithms(), secret, errors);
        Map<String, String> claimHeaders = claimHeaders(in.claimHeaders(), errors);
        List<String> audience = in.audience() == null ? List.of() : in.audience();
        if (audience.size() > MAX_ENTRIES || audience.stream().anyMatch(a -> a == null || a.isBlank())) {
            errors.add(new FieldError("jwt.audience", "at most " + MAX_ENTRIES + " values, none empty"));
        }
        String issuer = in.issuer() == null || in.issuer().isBlank() ? null : in.issuer();
        String skew = DurationText.normalise("jwt.clockSkew", in.clockSkew(), "30s", Duration.ZERO, MAX_SKEW, errors);
        String refresh = in.jwksUrl() == null ? null
                : DurationText.normalise("jwt.jwksRefresh", in.jwksRefresh(), "5m", MIN_REFRESH, MAX_REFRESH, errors);
        return new JwtDefinition(in.jwksUrl() == null ? null : in.jwksUrl().trim(),
                in.key() == null ? null : in.key().trim(), issuer, audience, algorithms, skew, claimHeaders,
                in.forwardToken() != null && in.forwardToken(), refresh);
    }

    private static void jwksUrl(String text, List<FieldError> errors) {
        try {
            URI uri = new URI(text.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                    || uri.getRawUserInfo() != null) {
                errors.add(new FieldError("jwt.jwksUrl", "must be an absolute http:// or https:// URL with a host"));
            }
        } catch (java.net.URISyntaxException e) {
            errors.add(new FieldError("jwt.jwksUrl", "is not a URL: " + e.getReason()));
        }
    }

    private static List<String> algorithms(List<String> given, boolean secret, List<FieldError> errors) {
        if (given == null || given.isEmpty()) {
            return secret ? HMAC : ASYMMETRIC;
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String alg = given.get(i);
            String field = "jwt.algorithms[" + i + "]";
            if (alg == null || !ASYMMETRIC.contains(alg) && !HMAC.contains(alg)) {
                errors.add(new FieldError(field, "must be one of " + String.join(", ", ASYMMETRIC) + ", "
                        + String.join(", ", HMAC) + " (none is never accepted)"));
            } else if (HMAC.contains(alg) != secret) {
                errors.add(new FieldError(field, secret ? "a secret key verifies only HS256, HS384 and HS512"
                        : "HMAC needs key to be a secret: with a public key or a key set anyone could sign"));
            } else if (!out.contains(alg)) {
                out.add(alg);
            }
        }
        return out;
    }

    private static Map<String, String> claimHeaders(Map<String, String> given, List<FieldError> errors) {
        if (given == null) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (given.size() > MAX_ENTRIES) {
            errors.add(new FieldError("jwt.claimHeaders", "at most " + MAX_ENTRIES + " claims"));
            return out;
        }
        given.forEach((claim, header) -> {
            String field = "jwt.claimHeaders." + claim;
            if (claim.isBlank() || header == null || !FIELD_NAME.matcher(header).matches()) {
                errors.add(new FieldError(field, "must name a header field (1-64 token characters)"));
            } else if (RESERVED.contains(header.toLowerCase(Locale.ROOT))) {
                errors.add(new FieldError(field, "'" + header + "' cannot carry a claim"));
            } else {
                out.put(claim, header);
            }
        });
        return out;
    }

    static JwtSpec toSpec(JwtDefinition stored) {
        if (stored == null) {
            return null;
        }
        return new JwtSpec(stored.jwksUrl(), stored.key() == null ? null : JwtKeyText.parse(stored.key()),
                stored.issuer(), stored.audience(), stored.algorithms(),
                DurationText.parse(stored.clockSkew(), MAX_SKEW, true), stored.claimHeaders(),
                stored.forwardToken(),
                stored.jwksRefresh() == null ? null : DurationText.parse(stored.jwksRefresh(), MAX_REFRESH, false));
    }
}
