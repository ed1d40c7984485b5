package dev.portico.control.api.upstream;

import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.UpstreamReport;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;

/** What {@code GET /api/v1/vhosts/{id}/upstreams} returns: each upstream's health, as this instance sees it. */
@Schema(name = "VhostUpstreams")
public record UpstreamsView(
        @Schema(description = "The vhost's name") String vhost,
        @Schema(description = "Its upstreams in configuration order, then those removed while requests to them "
                + "finish (draining)")
        List<Upstream> upstreams,
        @Schema(description = "The vhost's circuit breaker; null when it has none")
        Breaker circuitBreaker) {

    /** The circuit breaker's state. */
    @Schema(name = "CircuitBreakerState")
    public record Breaker(
            @Schema(description = "closed: requests go through and are counted; open: requests get 503 circuit_open "
                    + "until the cool-down is over; half-open: trial requests go through, the others get 503",
                    enumeration = {"closed", "open", "half-open"})
            String state,
            @Schema(description = "When it entered this state (or when this instance first had the breaker)")
            Instant since,
            @Schema(description = "Why, in words", example = "62% of 80 requests failed in 10s, open for 10s")
            String reason,
            @Schema(description = "How often it opened")
            long opens) {

        static Breaker of(CircuitReport report) {
            return report == null ? null
                    : new Breaker(report.state().code(), report.since(), report.reason(), report.opens());
        }
    }

    /** One upstream's state and counters. */
    @Schema(name = "UpstreamHealth")
    public record Upstream(
            @Schema(description = "The upstream's URL as configured; when DNS resolved its host name, one entry per "
                    + "address, named in brackets", example = "http://api.internal:8080 [10.0.0.5]")
            String url,
            @Schema(description = "unknown: checks are on and none has passed yet (no traffic); healthy; "
                    + "backup-standby: a backup ready to serve that gets no traffic while a primary is available; "
                    + "unhealthy: active checks failed; ejected: passive health took it out for a while; draining: "
                    + "removed from the configuration while its requests finish",
                    enumeration = {"unknown", "healthy", "backup-standby", "unhealthy", "ejected", "draining"})
            String state,
            @Schema(description = "When it entered this state (or when this instance first had it)")
            Instant since,
            @Schema(description = "Why, in words", example = "3 consecutive 503 from /healthz")
            String reason,
            @Schema(description = "How long the last active check took; null when checks are off or none ran yet")
            Long lastCheckLatencyMillis,
            @Schema(description = "Requests sent to it that await their response head now")
            long inFlight,
            @Schema(description = "Requests sent to it (retries count once each)")
            long requests,
            @Schema(description = "Of those, the ones that failed (connect, timeout, reset) or answered 5xx")
            long failures,
            @Schema(description = "How often outlier detection ejected it")
            long ejections,
            @Schema(description = "Attempts its queue refused, never sent: every connection was busy and the "
                    + "queue full (upstreamLimits.maxPending) or the wait over (upstreamLimits.queueTimeout); each "
                    + "is a 503 upstream_overloaded unless retried on another upstream. Not among requests or failures")
            long overloaded,
            @Schema(description = "Its configured weight")
            int weight,
            @Schema(description = "The weight its balancing policy gives it now: 0 while it takes no traffic, a "
                    + "share of weight while slow start ramps it up after it came back, else weight", example = "0.55")
            double weightNow) {

        static Upstream of(UpstreamReport report) {
            return new Upstream(report.upstream(), report.state().code(), report.since(), report.reason(),
                    report.lastCheckLatencyMillis(), report.inFlight(), report.requests(), report.failures(),
                    report.ejections(), report.overloaded(), report.weight(), report.weightNow());
        }
    }
}
