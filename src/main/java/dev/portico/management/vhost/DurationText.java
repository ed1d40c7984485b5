package dev.portico.management.vhost;

import java.time.Duration;

/** Durations as operators write them in nginx and Caddy configs: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}. */
final class DurationText {

    static final Duration MAX = Duration.ofHours(1);

    private DurationText() {
    }

    /** @throws IllegalArgumentException with a reason fit for an API error */
    static Duration parse(String text) {
        String t = text.trim();
        int unitAt = 0;
        while (unitAt < t.length() && Character.isDigit(t.charAt(unitAt))) {
            unitAt++;
        }
        if (unitAt == 0 || unitAt > 10) {
            throw new IllegalArgumentException("must be a whole number followed by ms, s, m or h, e.g. 5s");
        }
        long amount = Long.parseLong(t.substring(0, unitAt));
        Duration duration = switch (t.substring(unitAt)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> throw new IllegalArgumentException("must be a whole number followed by ms, s, m or h, e.g. 5s");
        };
        if (duration.isZero()) {
            throw new IllegalArgumentException("must be greater than zero");
        }
        if (duration.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("must be at most 1h");
        }
        return duration;
    }

    /** The shortest exact text for a duration: 60000ms and 60s both become {@code 1m}. */
    static String format(Duration duration) {
        long ms = duration.toMillis();
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
