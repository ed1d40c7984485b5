package dev.portico.proxy.core.outcome;

/**
 * Where a vhost's circuit breaker stands, as the upstreams endpoint, the {@code circuit} events, the logs and the
 * {@code portico_circuit_state} metric name it.
 */
public enum CircuitState {
    /** Requests go through; their outcomes are counted over the window. */
    CLOSED("closed"),
    /** Requests are refused at once (503 {@code circuit_open}) until the cool-down is over. */
    OPEN("open"),
    /** Trial requests go through; the rest are refused until all the trials succeeded or one failed. */
    HALF_OPEN("half-open");

    private final String code;

    CircuitState(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
