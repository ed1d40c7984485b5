package dev.portico.proxy.core.outcome;

/**
 * Why an upstream attempt failed, in the terms a vhost's {@code retry.on} is written in: what decides whether another
 * attempt is made, and what {@code portico_retries_total{reason}} counts.
 */
public enum RetryReason {
    /** No connection could be had (refused, connect timeout, TLS handshake): nothing of the request was sent. */
    CONNECT_FAILURE("connect_failure"),
    /**
     * Portico's queue for the upstream's connections was full or timed out ({@code upstream_overloaded}): nothing was
     * sent. Retried, on another upstream only, when the vhost retries {@code connect_failure}.
     */
    OVERLOADED("overloaded"),
    /** The request went out and no response head came back in time. */
    TIMEOUT("timeout"),
    /** The request went out and the connection closed or broke before a full, valid response head. */
    RESET("reset"),
    /** A response head came back with a status the vhost retries (502, 503, 504...). */
    STATUS("status"),
    /**
     * A reused keep-alive connection closed as the request went out, before any byte of an answer: the request never
     * reached the origin. Not a {@code retry.on} condition: an idempotent request is always sent again, as browsers,
     * Go's and Java's HTTP clients and nginx ({@code proxy_next_upstream error}) do.
     */
    STALE_CONNECTION("stale_connection");

    private final String code;

    RetryReason(String code) {
        this.code = code;
    }

    /** Stable snake_case code, as in the vhost's {@code retry.on} and the metrics' {@code reason} label. */
    public String code() {
        return code;
    }
}
