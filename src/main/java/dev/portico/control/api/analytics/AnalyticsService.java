package dev.portico.control.api.analytics;

import dev.portico.telemetry.analytics.AnalyticsSettings;
import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.store.VhostEntity;
import dev.portico.control.store.VhostRepository;
import dev.portico.telemetry.analytics.offloop.TopCounter;
import dev.portico.telemetry.analytics.offloop.TrafficCounts;
import dev.portico.telemetry.analytics.offloop.TrafficMinute;
import dev.portico.control.store.TrafficStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads a vhost's stored buckets over a range and merges them: counters summed, top lists merged by summing the
 * counts of equal keys (approximate at the tail, since each bucket stored only its own top entries).
 */
@ApplicationScoped
public class AnalyticsService {

    private final VhostRepository vhosts;
    private final TrafficStore store;
    private final Duration retention;

    public AnalyticsService(VhostRepository vhosts, TrafficStore store, AnalyticsSettings config) {
        this.vhosts = vhosts;
        this.store = store;
        this.retention = config.retention();
    }

    public AnalyticsView analytics(UUID id, String from, String to, String top) {
        AnalyticsQuery query = AnalyticsQuery.parse(from, to, top, Instant.now().truncatedTo(ChronoUnit.MILLIS),
                retention);
        VhostEntity vhost = vhosts.findById(id);
        if (vhost == null) {
            throw ApiProblem.notFound("No vhost with id " + id);
        }
        List<TrafficMinute> minutes = store.range(id, query.from(), query.to());
        TrafficCounts total = TrafficCounts.ZERO;
        TopCounter paths = new TopCounter();
        TopCounter clients = new TopCounter();
        TopCounter agents = new TopCounter();
        TopCounter referrers = new TopCounter();
        List<AnalyticsView.MinuteView> series = new ArrayList<>(minutes.size());
        for (TrafficMinute minute : minutes) {
            TrafficCounts counts = minute.counts();
            total = total.plus(counts);
            paths.add(minute.paths());
            clients.add(minute.clients());
            agents.add(minute.agents());
            referrers.add(minute.referrers());
            series.add(new AnalyticsView.MinuteView(minute.minute(), counts.requests(), counts.bytesIn(),
                    counts.bytesOut(), counts.statusMix()));
        }
        int n = query.top();
        return new AnalyticsView(vhost.id, vhost.name, query.from(), query.to(), total.requests(), total.bytesIn(),
                total.bytesOut(), total.statusMix(), paths.top(n), clients.top(n), agents.top(n), referrers.top(n),
                series);
    }
}
