package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A vhost's limits on each of its upstreams, as clients write it; a field left out takes its default. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "UpstreamLimits", description = "The queue for a busy upstream, per upstream and event loop (like "
        + "portico.upstream.max-connections): when every connection to an upstream is busy a request waits for one, "
        + "at most maxPending of them and each at most queueTimeout; past either it gets 503 upstream_overloaded "
        + "with Retry-After (retried on another upstream when retry.on has connect_failure)")
public record UpstreamLimitsDefinition(
        @Schema(description = "Requests that may wait for a connection to one upstream on one event loop, "
                + "1-1000000; null or left out: portico.upstream.max-pending (1024)", minimum = "1",
                maximum = "1000000", example = "256")
        Integer maxPending,
        @Schema(description = "The longest a request waits for a connection to come free, e.g. 500ms, 2s (at most "
                + "1h); null or left out: the vhost's connectTimeout", example = "2s")
        String queueTimeout) {
}
