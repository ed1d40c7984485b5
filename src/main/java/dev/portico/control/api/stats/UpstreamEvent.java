package dev.portico.control.api.stats;

import dev.portico.proxy.core.outcome.UpstreamReport;

import java.time.Instant;

/** The data of an {@code upstream} event on the stats stream: one upstream of one vhost changed state. */
public record UpstreamEvent(String vhost, String upstream, String from, String to, String reason, Instant at) {

    static UpstreamEvent of(UpstreamReport.Transition transition) {
        return new UpstreamEvent(transition.vhost(), transition.upstream(), transition.from().code(),
                transition.to().code(), transition.reason(), transition.at());
    }
}
