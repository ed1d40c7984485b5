package dev.portico.control.api.analytics;

import dev.portico.telemetry.analytics.offloop.TopItem;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What {@code GET /api/v1/vhosts/{id}/analytics} reports: a vhost's traffic merged over a time range. */
@Schema(name = "Analytics")
public record AnalyticsView(
        UUID vhostId,
        String vhostName,
        @Schema(description = "Start of the range (inclusive): minutes that start at or after it are counted")
        Instant from,
        @Schema(description = "End of the range (exclusive): minutes that start before it are counted") Instant to,
        long requests,
        @Schema(description = "Request body bytes read from clients") long bytesIn,
        @Schema(description = "Response body bytes written to clients") long bytesOut,
        @Schema(description = "Requests by status class: 1xx, 2xx, 3xx, 4xx, 5xx") Map<String, Long> status,
        @Schema(description = "Paths without the query string, most requested first") List<TopItem> topPaths,
        @Schema(description = "Client addresses (behind trusted proxies, the address they forwarded)")
        List<TopItem> topClients,
        @Schema(description = "User agents with their class; '-' counts requests without a User-Agent")
        List<TopItem> topAgents,
        @Schema(description = "Referer values; requests without one are not listed") List<TopItem> topReferrers,
        @Schema(description = "Per minute with traffic, oldest first; minutes without traffic are left out")
        List<MinuteView> series) {

    /** One minute of the series. */
    @Schema(name = "AnalyticsMinute")
    public record MinuteView(
            @Schema(description = "Start of the minute") Instant minute,
            long requests,
            long bytesIn,
            long bytesOut,
            @Schema(description = "Requests by status class: 1xx, 2xx, 3xx, 4xx, 5xx") Map<String, Long> status) {
    }
}
