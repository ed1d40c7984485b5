package dev.portico.proxy.route;

import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.UpstreamReport;
import dev.portico.proxy.upstream.health.HealthCheckers;
import dev.portico.proxy.upstream.health.HealthSweeper;
import dev.portico.proxy.upstream.health.VhostUpstreams;
import io.vertx.core.Vertx;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Upstream health as the rest of Portico sees it: the states, causes and counters of every vhost's upstreams and its
 * circuit breaker (the upstreams endpoint, the metrics, the status), and their transitions as they happen (the
 * {@code upstream} and {@code circuit} events).
 * Behind it, the compiler keeps the active checkers and the vhosts' upstream states in step with each published
 * snapshot.
 */
@Singleton
public class UpstreamHealthService {

    private final HealthCheckers checkers;
    private final HealthSweeper sweeper;
    private volatile Map<UUID, VhostUpstreams> byVhost = Map.of();
    private volatile Map<UUID, List<VhostUpstreams>> routesByVhost = Map.of();

    public UpstreamHealthService(Vertx vertx) {
        this.checkers = new HealthCheckers(vertx);
        this.sweeper = new HealthSweeper(vertx);
    }

    HealthCheckers checkers() {
        return checkers;
    }

    /**
     * A compile for publishing succeeded with these vhosts: their checks and states take effect.
     *
     * @param routes the upstream states of routes with upstreams of their own, by vhost id
     */
    void published(Map<UUID, VhostUpstreams> vhosts, Map<UUID, List<VhostUpstreams>> routes) {
        checkers.commit();
        List<VhostUpstreams> all = new ArrayList<>(vhosts.values());
        routes.values().forEach(all::addAll);
        sweeper.track(all);
        byVhost = Map.copyOf(vhosts);
        routesByVhost = Map.copyOf(routes);
    }

    /**
     * The upstreams of a served vhost (draining ones last), then those of its routes; null when no served vhost
     * has this id.
     */
    public List<UpstreamReport> reports(UUID vhostId) {
        VhostUpstreams vhost = byVhost.get(vhostId);
        List<VhostUpstreams> routes = routesByVhost.getOrDefault(vhostId, List.of());
        if (vhost == null && routes.isEmpty()) {
            return null;
        }
        List<UpstreamReport> out = new ArrayList<>(vhost == null ? List.of() : vhost.reports());
        routes.forEach(route -> out.addAll(route.reports()));
        return out;
    }

    /** The circuit breaker of a served vhost, or null when it has none (or no served vhost has this id). */
    public CircuitReport breaker(UUID vhostId) {
        VhostUpstreams vhost = byVhost.get(vhostId);
        return vhost == null ? null : vhost.breakerReport();
    }

    /** The circuit breakers of the served vhosts that have one. */
    public List<CircuitReport> breakers() {
        List<CircuitReport> out = new ArrayList<>();
        for (VhostUpstreams vhost : sweeper.vhosts()) {
            CircuitReport report = vhost.breakerReport();
            if (report != null) {
                out.add(report);
            }
        }
        return out;
    }

    /** Every served vhost's upstreams. */
    public List<UpstreamReport> reports() {
        List<UpstreamReport> out = new ArrayList<>();
        for (VhostUpstreams vhost : sweeper.vhosts()) {
            out.addAll(vhost.reports());
        }
        return out;
    }

    /** The names of the served vhosts none of whose upstreams takes traffic now. */
    public List<String> vhostsWithoutHealthyUpstream() {
        List<String> out = new ArrayList<>();
        for (VhostUpstreams vhost : sweeper.vhosts()) {
            // A route's own group carries its vhost's name: the vhost is named once.
            if (!vhost.anyHealthy() && !out.contains(vhost.name())) {
                out.add(vhost.name());
            }
        }
        out.sort(String.CASE_INSENSITIVE_ORDER);
        return out;
    }

    /** Called on an event loop for every transition, once; must not block. */
    public void onTransition(Consumer<UpstreamReport.Transition> listener) {
        sweeper.onTransition(listener);
    }

    /** Called on an event loop for every transition of a circuit breaker, once; must not block. */
    public void onCircuitTransition(Consumer<CircuitReport.Transition> listener) {
        sweeper.onCircuitTransition(listener);
    }

    /** How many active checkers run: one per upstream and check settings. */
    public int runningCheckers() {
        return checkers.running();
    }
}
