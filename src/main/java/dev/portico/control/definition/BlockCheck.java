package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;

import java.time.Duration;
import java.util.List;

/**
 * The field rules a settings block shares (counts, shares, durations), each error named under the block's prefix
 * ({@code outlierDetection.failureRatio}). A value that breaks its rule is reported and returned as it was, so the
 * caller can go on checking the rest.
 */
class BlockCheck {

    private final String prefix;
    private final List<FieldError> errors;

    BlockCheck(String prefix, List<FieldError> errors) {
        this.prefix = prefix;
        this.errors = errors;
    }

    /** Whether {@code entries} is longer than {@code max}, which is then reported under {@code field}. */
    static boolean tooMany(String field, List<?> entries, int max, List<FieldError> errors) {
        if (entries.size() <= max) {
            return false;
        }
        errors.add(new FieldError(field, "at most " + max + " entries (has " + entries.size() + ")"));
        return true;
    }

    final void error(String field, String reason) {
        errors.add(new FieldError(prefix + "." + field, reason));
    }

    /** A whole number from {@code min} to {@code max}; the fallback when absent. */
    final Integer count(String field, Integer value, int fallback, int min, int max) {
        if (value == null) {
            return fallback;
        }
        if (value < min || value > max) {
            error(field, "must be " + min + "-" + max);
        }
        return value;
    }

    /** A share from 0 to 1 (above 0 when {@code zeroAllowed} is false); the fallback when absent. */
    final Double share(String field, Double value, double fallback, boolean zeroAllowed) {
        if (value == null) {
            return fallback;
        }
        if (value < 0 || value > 1 || value == 0 && !zeroAllowed) {
            error(field, "must be a share " + (zeroAllowed ? "from 0" : "above 0 and up") + " to 1, e.g. 0.5 for 50%");
        }
        return value;
    }

    /** A duration from {@code min} to {@code max}, the fallback when absent, or null when it breaks its rule. */
    final Duration duration(String field, String raw, Duration fallback, Duration min, Duration max) {
        if (raw == null) {
            return fallback;
        }
        try {
            return DurationText.parse(raw, min, max);
        } catch (IllegalArgumentException e) {
            error(field, e.getMessage());
            return null;
        }
    }

    /** The normal text of a checked duration, or what was sent when it broke its rule. */
    static String text(Duration checked, String raw) {
        return checked == null ? raw : DurationText.format(checked);
    }
}
