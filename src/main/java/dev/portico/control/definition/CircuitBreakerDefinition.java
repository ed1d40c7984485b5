package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A vhost's circuit breaker, as clients write it; null (left out) for none. Every field has a default. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "CircuitBreaker", description = "A breaker over the vhost's upstream group: when failureRatio of its "
        + "forwarded requests over window failed (connect failures, timeouts, resets and 5xx, after retries), with at "
        + "least minRequests, it opens and requests get 503 circuit_open with Retry-After for coolDown; then "
        + "halfOpenRequests trial requests go through: all succeed and it closes, one fails and it opens again")
public record CircuitBreakerDefinition(
        @Schema(description = "The share of failed requests that opens the breaker, above 0 and at most 1",
                defaultValue = "0.5")
        Double failureRatio,
        @Schema(description = "The fewest requests within the window for the ratio to count, 1-100000",
                defaultValue = "20")
        Integer minRequests,
        @Schema(description = "The sliding window the ratio is measured over, 1s to 10m", defaultValue = "10s")
        String window,
        @Schema(description = "How long the breaker stays open before trial requests go through, 1s to 1h",
                defaultValue = "10s")
        String coolDown,
        @Schema(description = "Trial requests let through once the cool-down is over, all of which must succeed to "
                + "close the breaker, 1-100", defaultValue = "3")
        Integer halfOpenRequests) {
}
