package dev.portico.vhost;

import java.time.Duration;

/**
 * A vhost's limits on each of its upstreams, per event loop like {@code portico.upstream.max-connections}: how many
 * requests may wait for a connection while every connection to the upstream is busy, and how long one may wait.
 * Past either the request gets 503 {@code upstream_overloaded} (Envoy's {@code max_pending_requests}, HAProxy's
 * {@code maxqueue} and {@code timeout queue}).
 *
 * @param maxPending   requests that may wait for a connection, per upstream and event loop; null for the global
 *                     default ({@code portico.upstream.max-pending})
 * @param queueTimeout the longest a request waits for a busy upstream's connection; null for the vhost's
 *                     {@code connectTimeout} (HAProxy's {@code timeout queue} falls back to {@code timeout connect})
 */
public record UpstreamLimitsSpec(Integer maxPending, Duration queueTimeout) {

    /** What a vhost that says nothing gets: the global default queue, waited on for the connect timeout. */
    public static final UpstreamLimitsSpec DEFAULT = new UpstreamLimitsSpec(null, null);
}
