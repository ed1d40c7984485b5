package dev.portico.telemetry.analytics.offloop;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A closed bucket of one vhost: its counters and its top lists, highest count first. What is written to
 * {@code traffic_minute} and read back from it.
 *
 * @param minute where the bucket starts
 */
public record TrafficMinute(UUID vhostId, Instant minute, TrafficCounts counts, List<TopItem> paths,
                            List<TopItem> clients, List<TopItem> agents, List<TopItem> referrers) {

    public TrafficMinute {
        paths = List.copyOf(paths);
        clients = List.copyOf(clients);
        agents = List.copyOf(agents);
        referrers = List.copyOf(referrers);
    }

    /** The same vhost and bucket counted elsewhere (a late sample, another replica): counters summed, lists merged. */
    public TrafficMinute merge(TrafficMinute other, int top) {
        return new TrafficMinute(vhostId, minute, counts.plus(other.counts),
                TopCounter.merge(paths, other.paths, top), TopCounter.merge(clients, other.clients, top),
                TopCounter.merge(agents, other.agents, top), TopCounter.merge(referrers, other.referrers, top));
    }
}
