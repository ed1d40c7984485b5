package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.RateLimitSpec;

import java.util.List;
import java.util.regex.Pattern;

/** Validates and normalises a {@code rateLimit} block (each field named, {@code rateLimit.burst}). */
final class RateLimitSettingsCheck {

    static final double MAX_RATE = 1_000_000;
    static final int MAX_BURST = 1_000_000;

    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final Pattern CLAIM_NAME = Pattern.compile("[!-~]{1,128}");

    private RateLimitSettingsCheck() {
    }

    /** The block with its defaults filled in, or null when there is none. */
    static RateLimitDefinition normalise(RateLimitDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        Double rate = in.requestsPerSecond();
        if (rate == null) {
            errors.add(new FieldError("rateLimit.requestsPerSecond", "is required"));
        } else if (!(rate > 0) || rate > MAX_RATE) {
            errors.add(new FieldError("rateLimit.requestsPerSecond", "must be more than 0 and at most 1000000"));
        }
        Integer burst = in.burst();
        if (burst == null) {
            burst = rate != null && rate > 0 && rate <= MAX_RATE ? (int) Math.max(1, Math.ceil(rate)) : null;
        } else if (burst < 1 || burst > MAX_BURST) {
            errors.add(new FieldError("rateLimit.burst", "must be 1 to " + MAX_BURST));
        }
        String key = in.key() == null ? "client" : in.key();
        if (!keyValid(key)) {
            errors.add(new FieldError("rateLimit.key", "must be client, route, header:<Name> (a header name) or "
                    + "claim:<name> (1-128 printable characters)"));
        }
        return new RateLimitDefinition(rate, burst, key);
    }

    private static boolean keyValid(String key) {
        if (key.equals("client") || key.equals("route")) {
            return true;
        }
        if (key.startsWith("header:")) {
            return HEADER_NAME.matcher(key.substring("header:".length())).matches();
        }
        return key.startsWith("claim:") && CLAIM_NAME.matcher(key.substring("claim:".length())).matches();
    }

    /** For a normalised block, or null when there is none. */
    static RateLimitSpec toSpec(RateLimitDefinition stored) {
        if (stored == null) {
            return null;
        }
        String key = stored.key();
        RateLimitSpec.Key kind = key.equals("route") ? RateLimitSpec.Key.ROUTE
                : key.startsWith("header:") ? RateLimitSpec.Key.HEADER
                : key.startsWith("claim:") ? RateLimitSpec.Key.CLAIM : RateLimitSpec.Key.CLIENT;
        String name = kind == RateLimitSpec.Key.HEADER || kind == RateLimitSpec.Key.CLAIM
                ? key.substring(key.indexOf(':') + 1) : null;
        return new RateLimitSpec(stored.requestsPerSecond(), stored.burst(), kind, name);
    }
}
