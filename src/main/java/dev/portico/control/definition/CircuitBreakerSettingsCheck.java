package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.CircuitBreakerSpec;

import java.time.Duration;
import java.util.List;

/**
 * Validates and normalises a vhost's {@code circuitBreaker} block (every field named under {@code circuitBreaker.*}),
 * and turns the normal form into a {@link CircuitBreakerSpec}.
 */
final class CircuitBreakerSettingsCheck {

    static final int MAX_MIN_REQUESTS = 100_000;
    static final int MAX_HALF_OPEN_REQUESTS = 100;
    static final Duration MIN_DURATION = Duration.ofSeconds(1);
    static final Duration MAX_WINDOW = Duration.ofMinutes(10);

    private CircuitBreakerSettingsCheck() {
    }

    /** The block with defaults filled in, or null when there is none (no breaker). */
    static CircuitBreakerDefinition normalise(CircuitBreakerDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        BlockCheck check = new BlockCheck("circuitBreaker", errors);
        return new CircuitBreakerDefinition(
                check.share("failureRatio", in.failureRatio(), CircuitBreakerSpec.DEFAULT_FAILURE_RATIO, false),
                check.count("minRequests", in.minRequests(), CircuitBreakerSpec.DEFAULT_MIN_REQUESTS, 1,
                        MAX_MIN_REQUESTS),
                BlockCheck.text(check.duration("window", in.window(), CircuitBreakerSpec.DEFAULT_WINDOW, MIN_DURATION,
                        MAX_WINDOW), in.window()),
                BlockCheck.text(check.duration("coolDown", in.coolDown(), CircuitBreakerSpec.DEFAULT_COOL_DOWN,
                        MIN_DURATION, DurationText.MAX), in.coolDown()),
                check.count("halfOpenRequests", in.halfOpenRequests(), CircuitBreakerSpec.DEFAULT_HALF_OPEN_REQUESTS,
                        1, MAX_HALF_OPEN_REQUESTS));
    }

    /** For a normalised block; null for none. */
    static CircuitBreakerSpec toSpec(CircuitBreakerDefinition d) {
        if (d == null) {
            return null;
        }
        return new CircuitBreakerSpec(d.failureRatio(), d.minRequests(),
                DurationText.parse(d.window(), MAX_WINDOW, false), DurationText.parse(d.coolDown()),
                d.halfOpenRequests());
    }
}
