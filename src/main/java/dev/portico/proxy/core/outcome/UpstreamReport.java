package dev.portico.proxy.core.outcome;

import java.time.Instant;

/**
 * One upstream of a vhost as an operator sees it: its state, since when and why, and what went through it.
 *
 * @param upstream             the upstream's URL as configured
 * @param since                when it entered {@code state}
 * @param reason               the last transition's cause in words ({@code 3 consecutive 503 from /healthz})
 * @param lastCheckLatencyMillis how long the last active check took, or null (checks off, or none yet)
 * @param inFlight             attempts sent to it that await their response head now
 * @param requests             attempts sent to it since the vhost had it (or since Portico started)
 * @param failures             of those, the ones that failed or answered 5xx
 * @param ejections            how often passive health ejected it
 * @param overloaded           attempts refused because its queue was full or timed out ({@code upstream_overloaded}),
 *                             not among {@code requests}
 * @param weight               its configured weight
 * @param weightNow            the weight its balancing policy gives it now: 0 while it takes no traffic, a share of
 *                             {@code weight} while slow start ramps it up after it came back, else {@code weight}
 */
public record UpstreamReport(String vhost, String upstream, UpstreamState state, Instant since, String reason,
                             Long lastCheckLatencyMillis, long inFlight, long requests, long failures,
                             long ejections, long overloaded, int weight, double weightNow) {

    /** A change of state, told once: logged, streamed as an {@code upstream} event. */
    public record Transition(String vhost, String upstream, UpstreamState from, UpstreamState to, String reason,
                             Instant at) {
    }
}
