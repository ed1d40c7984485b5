package dev.portico.control.api.stats;

import dev.portico.proxy.core.outcome.CircuitReport;

import java.time.Instant;

/** The data of a {@code circuit} event on the stats stream: a vhost's circuit breaker changed state. */
public record CircuitEvent(String vhost, String from, String to, String reason, Instant at) {

    static CircuitEvent of(CircuitReport.Transition transition) {
        return new CircuitEvent(transition.vhost(), transition.from().code(), transition.to().code(),
                transition.reason(), transition.at());
    }
}
