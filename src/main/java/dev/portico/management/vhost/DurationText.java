package dev.portico.management.vhost;

import java.time.Duration;

/** Durations as operators write them in nginx and Caddy configs: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}. */
final class DurationText {

    static final Duration MAX = Duration.ofHours(1);
    private static final String UNITS = "must be a whole number followed by ms, s, m, h or d, e.g. 5s";

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
        if (unitAt == 0 || unitAt > 10) {
            throw new IllegalArgumentException(UNITS);
        }
        long amount = Long.parseLong(t.substring(0, unitAt));
        Duration duration = switch (t.substring(unitAt)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> throw new IllegalArgumentException(UNITS);
        };
        if (duration.isZero() && !zeroAllowed) {
            throw new IllegalArgumentException("must be greater than zero");
        }
        if (duration.compareTo(max) > 0) {
            throw new IllegalArgumentException("must be at most " + format(max));
        }
        return duration;
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
