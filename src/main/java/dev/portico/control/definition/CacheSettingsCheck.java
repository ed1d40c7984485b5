package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.CacheDefinition;
import dev.portico.vhost.CacheSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Validates and normalises a vhost's {@code cache} block, and turns the normal form into a {@link CacheSpec}. */
final class CacheSettingsCheck {

    static final long MAX_SIZE = 1L << 40;
    static final Duration MAX_TTL = Duration.ofDays(365);
    static final int MAX_IGNORED_PARAMS = 50;
    // No control characters: the definition is stored as jsonb, which cannot hold NUL.
    private static final Pattern PARAM = Pattern.compile("[^\\s\\p{Cntrl}&=#]{1,128}");

    private static final CacheDefinition DEFAULT = new CacheDefinition(false,
            ByteSizeText.format(CacheSpec.DEFAULT_MAX_BYTES), ByteSizeText.format(CacheSpec.DEFAULT_MAX_OBJECT_BYTES),
            "0s", "0s", "0s", "5s", List.of());

    private final List<FieldError> errors;

    private CacheSettingsCheck(List<FieldError> errors) {
        this.errors = errors;
    }

    /** The block with defaults filled in; problems are added to {@code errors} under {@code cache.*}. */
    static CacheDefinition normalise(CacheDefinition in, List<FieldError> errors) {
        if (in == null) {
            return DEFAULT;
        }
        CacheSettingsCheck check = new CacheSettingsCheck(errors);
        return new CacheDefinition(in.enabled() != null && in.enabled(),
                check.size("maxSize", in.maxSize(), DEFAULT.maxSize(), 1L << 20),
                check.size("maxObjectSize", in.maxObjectSize(), DEFAULT.maxObjectSize(), 1),
                check.duration("defaultTtl", in.defaultTtl(), DEFAULT.defaultTtl(), MAX_TTL, true),
                check.duration("staleWhileRevalidate", in.staleWhileRevalidate(), DEFAULT.staleWhileRevalidate(),
                        MAX_TTL, true),
                check.duration("staleIfError", in.staleIfError(), DEFAULT.staleIfError(), MAX_TTL, true),
                check.duration("lockTimeout", in.lockTimeout(), DEFAULT.lockTimeout(), Duration.ofMinutes(1), false),
                check.params(in.ignoreQueryParams()));
    }

    /** For output: stored definitions written before the cache existed have no block. */
    static CacheDefinition normalised(CacheDefinition stored) {
        return stored == null ? DEFAULT : stored;
    }

    /** For a normalised block. */
    static CacheSpec toSpec(CacheDefinition d) {
        if (d == null) {
            return CacheSpec.DISABLED;
        }
        return new CacheSpec(d.enabled(), ByteSizeText.parse(d.maxSize(), 0, MAX_SIZE),
                ByteSizeText.parse(d.maxObjectSize(), 0, MAX_SIZE),
                DurationText.parse(d.defaultTtl(), MAX_TTL, true),
                DurationText.parse(d.staleWhileRevalidate(), MAX_TTL, true),
                DurationText.parse(d.staleIfError(), MAX_TTL, true),
                DurationText.parse(d.lockTimeout(), Duration.ofMinutes(1), false), d.ignoreQueryParams());
    }

    private String size(String field, String value, String fallback, long min) {
        if (value == null) {
            return fallback;
        }
        try {
            return ByteSizeText.format(ByteSizeText.parse(value, min, MAX_SIZE));
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError("cache." + field, e.getMessage()));
            return value;
        }
    }

    private String duration(String field, String value, String fallback, Duration max, boolean zeroAllowed) {
        if (value == null) {
            return fallback;
        }
        try {
            return DurationText.format(DurationText.parse(value, max, zeroAllowed));
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError("cache." + field, e.getMessage()));
            return value;
        }
    }

    private List<String> params(List<String> params) {
        if (params == null) {
            return List.of();
        }
        if (params.size() > MAX_IGNORED_PARAMS) {
            errors.add(new FieldError("cache.ignoreQueryParams", "must list at most " + MAX_IGNORED_PARAMS + " names"));
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < params.size(); i++) {
            String p = params.get(i);
            if (p == null || !PARAM.matcher(p).matches()) {
                errors.add(new FieldError("cache.ignoreQueryParams[" + i + "]",
                        "must be a query parameter name of 1-128 characters without spaces, control characters, "
                                + "'&', '=' or '#'"));
            } else {
                out.add(p);
            }
        }
        return new ArrayList<>(out);
    }
}
