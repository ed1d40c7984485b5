package dev.portico.proxy.core.outcome;

import java.time.Instant;

/**
 * A vhost's circuit breaker as an operator sees it.
 *
 * @param since  when it entered {@code state}
 * @param reason the last transition's cause in words ({@code 62% of 80 requests failed in 10s, open for 10s})
 * @param opens  how often it opened
 */
public record CircuitReport(String vhost, CircuitState state, Instant since, String reason, long opens) {

    /** A change of state, told once: logged, streamed as a {@code circuit} event. */
    public record Transition(String vhost, CircuitState from, CircuitState to, String reason, Instant at) {
    }
}
