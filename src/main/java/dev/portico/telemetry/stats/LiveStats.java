package dev.portico.telemetry.stats;

import dev.portico.proxy.core.counters.Latency;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One second of the data plane, as {@code GET /api/v1/stats} returns it and the stream sends it: per vhost and in
 * total. Counters are since start; rates and latencies cover the last interval.
 */
@Schema(name = "LiveStats")
public record LiveStats(
        @Schema(description = "Increases by one every interval; the SSE event id") long sequence,
        Instant time,
        @Schema(description = "Length of the interval the rates and latencies cover") double intervalSeconds,
        @Schema(description = "Open client connections") long connections,
        VhostLiveStats total,
        List<VhostLiveStats> vhosts,
        @Schema(description = "Accounting work dropped instead of slowing requests, since start: analytics_samples "
                + "and analytics_refused (requests left out of the traffic analytics: queue full or database away, "
                + "or refused by the database), access_log_lines, sse_events")
        Map<String, Long> dropped) {

    /** One vhost (or the total). */
    @Schema(name = "VhostLiveStats")
    public record VhostLiveStats(
            String vhost,
            @Schema(description = "Requests completed since start") long requests,
            double requestsPerSecond,
            long inFlight,
            @Schema(description = "Completed requests by status class (1xx..5xx)") Map<String, Long> status,
            @Schema(description = "Local replies and failures by reason, since start (non-zero only)")
            Map<String, Long> reasons,
            @Schema(description = "Requests by what the response cache did (hit, stale, revalidated, miss, collapsed, "
                    + "bypass), since start (non-zero only)")
            Map<String, Long> cache,
            long bytesIn,
            long bytesOut,
            @Schema(description = "End-to-end latency in the last interval, ms") Latency latencyMs,
            @Schema(description = "Time to the upstream's response head in the last interval, ms")
            Latency upstreamLatencyMs,
            @Schema(description = "Connections switched to another protocol (WebSocket) after a 101")
            TunnelLiveStats tunnels) {
    }

    /** The tunnels of one vhost (or in total): open now, and what the closed ones carried, since start. */
    @Schema(name = "TunnelLiveStats")
    public record TunnelLiveStats(
            @Schema(description = "Tunnels open now") long open,
            @Schema(description = "Closed tunnels by why: client_closed, upstream_closed, error, idle_timeout, "
                    + "vhost_removed, shutdown (non-zero only)") Map<String, Long> closed,
            @Schema(description = "Bytes closed tunnels carried from clients") long bytesIn,
            @Schema(description = "Bytes closed tunnels carried to clients") long bytesOut,
            @Schema(description = "Lifetimes of the closed tunnels, summed, in seconds") double seconds) {
    }
}
