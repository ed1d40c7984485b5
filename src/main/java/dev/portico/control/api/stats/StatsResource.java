package dev.portico.control.api.stats;

import dev.portico.telemetry.stats.LiveStats;
import dev.portico.telemetry.stats.StatsAggregator;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code /api/v1/stats}: live statistics of the data plane, as a snapshot or as a server-sent event stream. */
@Path("/api/v1/stats")
@Tag(name = "stats")
public class StatsResource {

    private final StatsAggregator aggregator;
    private final StatsStream stream;

    public StatsResource(StatsAggregator aggregator, StatsStream stream) {
        this.aggregator = aggregator;
        this.stream = stream;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The latest one-second interval, per vhost and in total")
    public LiveStats snapshot(@Parameter(description = "Only this vhost (by name) in vhosts[]")
                              @QueryParam("vhost") String vhost) {
        return StatsStream.filter(aggregator.latest(), vhost);
    }

    @GET
    @Path("stream")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "One 'stats' event per second (id = interval sequence), heartbeat comments every 10 s, "
            + "and an 'upstream' event whenever an upstream changes state",
            description = "A client that reads too slowly misses stats events instead of delaying anything; the drops "
                    + "are counted in dropped.sse_events. An 'upstream' event (data: vhost, upstream, from, to, "
                    + "reason, at) waits for the stats event being written, up to 100 per client.")
    public void stream(@Parameter(description = "Only this vhost (by name) in vhosts[]") @QueryParam("vhost")
                       String vhost, @Context SseEventSink sink, @Context Sse sse) {
        stream.subscribe(sink, sse, vhost, aggregator.latest());
    }
}
