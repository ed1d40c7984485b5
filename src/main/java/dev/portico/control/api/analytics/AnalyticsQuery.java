package dev.portico.control.api.analytics;

import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.FieldError;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The query parameters of an analytics request, checked all at once: {@code from} and {@code to} are ISO-8601
 * instants (default: {@code to} is now, {@code from} an hour before {@code to}), {@code top} is 1 to
 * {@value #MAX_TOP} (default {@value #DEFAULT_TOP}), and the range may not be longer than what is kept.
 */
record AnalyticsQuery(Instant from, Instant to, int top) {

    static final int DEFAULT_TOP = 10;
    static final int MAX_TOP = 100;
    static final Duration DEFAULT_RANGE = Duration.ofHours(1);

    /** @throws ApiProblem 400 naming every bad parameter */
    static AnalyticsQuery parse(String fromText, String toText, String topText, Instant now, Duration retention) {
        List<FieldError> errors = new ArrayList<>();
        Instant from = instant("from", fromText, errors);
        Instant to = instant("to", toText, errors);
        int top = top(topText, errors);
        if (errors.isEmpty()) {
            if (to == null) {
                to = now;
            }
            if (from == null) {
                from = to.minus(DEFAULT_RANGE);
            }
            if (from.isAfter(to)) {
                errors.add(new FieldError("from", "must not be after to (" + to + ")"));
            } else if (Duration.between(from, to).compareTo(retention) > 0) {
                errors.add(new FieldError("from", "must be at most " + text(retention) + " (the retention) before to"));
            }
        }
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors);
        }
        return new AnalyticsQuery(from, to, top);
    }

    private static Instant instant(String name, String text, List<FieldError> errors) {
        if (text == null || text.isBlank()) {
            return null;
        }
        // A '+' of an unencoded offset arrives as a space.
        String value = text.strip().replace(' ', '+');
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(name, "must be an ISO-8601 instant such as 2024-05-01T12:00:00Z"));
            return null;
        }
    }

    private static int top(String text, List<FieldError> errors) {
        if (text == null || text.isBlank()) {
            return DEFAULT_TOP;
        }
        try {
            int top = Integer.parseInt(text.strip());
            if (top >= 1 && top <= MAX_TOP) {
                return top;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        errors.add(new FieldError("top", "must be a whole number from 1 to " + MAX_TOP));
        return DEFAULT_TOP;
    }

    /** {@code 7d}, {@code 36h}, {@code 90m}, as the configuration writes it. */
    private static String text(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
