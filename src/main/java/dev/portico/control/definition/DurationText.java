package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Durations as operators write them in nginx and Caddy configs: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h},
 * {@code 1d}. A field takes only the units up to its maximum (a timeout of at most an hour takes no {@code d}), and
 * its errors list exactly those.
 */
final class DurationText {

    static final Duration MAX = Duration.ofHours(1);
    private static final List<String> UNITS = List.of("ms", "s", "m", "h", "d");
    private static final List<Duration> ONE = List.of(Duration.ofMillis(1), Duration.ofSeconds(1),
            Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofDays(1));

    private DurationText() {
    }

    /** A timeout: greater than zero, at most an hour. @throws IllegalArgumentException with a reason fit for an API error */
    static Duration parse(String text) {
        return parse(text, MAX, false);
    }

    /** @throws IllegalArgumentException with a reason fit for an API error */
    static Duration parse(String text, Duration max, boolean zeroAllowed) {
        String t = text.trim();
        int unitAt = 0;
        while (unitAt < t.length() && Character.isDigit(t.charAt(unitAt))) {
            unitAt++;
        }
        int unit = UNITS.indexOf(t.substring(unitAt));
        if (unitAt == 0 || unitAt > 10 || unit < 0 || ONE.get(unit).compareTo(max) > 0) {
            throw new IllegalArgumentException(unitsReason(max));
        }
        Duration duration = ONE.get(unit).multipliedBy(Long.parseLong(t.substring(0, unitAt)));
        if (duration.isZero() && !zeroAllowed) {
            throw new IllegalArgumentException("must be greater than zero");
        }
        if (duration.compareTo(max) > 0) {
            throw new IllegalArgumentException("must be at most " + format(max));
        }
        return duration;
    }

    /** A duration from {@code min} to {@code max}. @throws IllegalArgumentException with a reason for an API error */
    static Duration parse(String text, Duration min, Duration max) {
        Duration duration = parse(text, max, false);
        if (duration.compareTo(min) < 0) {
            throw new IllegalArgumentException("must be at least " + format(min));
        }
        return duration;
    }

    /**
     * The normal text of an optional field's duration ({@code defaultText} when left out), from {@code min} (zero
     * allowed when it is zero) to {@code max}; on an error, the text as given, and the error named by {@code field}.
     */
    static String normalise(String field, String text, String defaultText, Duration min, Duration max,
                            List<FieldError> errors) {
        String t = text == null ? defaultText : text;
        try {
            Duration duration = parse(t, max, min.isZero());
            if (duration.compareTo(min) < 0) {
                throw new IllegalArgumentException("must be at least " + format(min));
            }
            return format(duration);
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError(field, e.getMessage()));
            return t;
        }
    }

    /** "must be a whole number followed by ms, s, m or h, e.g. 5s": the units no larger than {@code max}. */
    private static String unitsReason(Duration max) {
        List<String> units = new ArrayList<>();
        for (int i = 0; i < UNITS.size() && ONE.get(i).compareTo(max) <= 0; i++) {
            units.add(UNITS.get(i));
        }
        String last = units.remove(units.size() - 1);
        return "must be a whole number followed by " + String.join(", ", units) + " or " + last + ", e.g. 5s";
    }

    /** The shortest exact text for a duration: 60000ms and 60s both become {@code 1m}. */
    static String format(Duration duration) {
        long ms = duration.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms % 86_400_000 == 0) {
            return ms / 86_400_000 + "d";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
