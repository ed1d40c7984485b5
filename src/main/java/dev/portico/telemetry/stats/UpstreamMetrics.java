package dev.portico.telemetry.stats;

import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.CircuitState;
import dev.portico.proxy.core.outcome.UpstreamReport;
import dev.portico.proxy.core.outcome.UpstreamState;
import dev.portico.proxy.route.UpstreamHealthService;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * Upstream health on {@code /q/metrics}, read at scrape time: {@code portico_upstream_state{vhost,upstream,state}}
 * (1 for the state the upstream is in, 0 for the others, so an alert can match {@code state="unhealthy"}),
 * {@code portico_upstream_requests_total{vhost,upstream}}, {@code portico_upstream_failures_total{vhost,upstream}}
 * {@code portico_upstream_ejections_total{vhost,upstream}} and {@code portico_upstream_overloaded_total{vhost,upstream}};
 * and of the vhosts that have a circuit breaker, {@code portico_circuit_state{vhost,state}} (1 for its state, 0 for
 * the others) and {@code portico_circuit_opens_total{vhost}}.
 */
@Singleton
public class UpstreamMetrics extends Collector {

    private final UpstreamHealthService health;
    private final PrometheusMeterRegistry prometheus;

    public UpstreamMetrics(UpstreamHealthService health, PrometheusMeterRegistry prometheus) {
        this.health = health;
        this.prometheus = prometheus;
    }

    void register(@Observes StartupEvent event) {
        register(prometheus.getPrometheusRegistry());
    }

    @Override
    public List<MetricFamilySamples> collect() {
        List<String> labels = List.of("vhost", "upstream");
        GaugeMetricFamily state = new GaugeMetricFamily("portico_upstream_state",
                "1 for the state each upstream of each vhost is in", List.of("vhost", "upstream", "state"));
        CounterMetricFamily requests = new CounterMetricFamily("portico_upstream_requests",
                "Requests sent to each upstream of each vhost", labels);
        CounterMetricFamily failures = new CounterMetricFamily("portico_upstream_failures",
                "Of those, the ones that failed or answered 5xx", labels);
        CounterMetricFamily ejections = new CounterMetricFamily("portico_upstream_ejections",
                "Ejections by outlier detection", labels);
        CounterMetricFamily overloaded = new CounterMetricFamily("portico_upstream_overloaded",
                "Attempts refused by the upstream's queue (full, or waited too long): upstream_overloaded", labels);
        for (UpstreamReport report : health.reports()) {
            if (report.state() == UpstreamState.DRAINING) {
                // Gone from the configuration: its series end (and may not clash with a new upstream of that URL).
                continue;
            }
            List<String> upstream = List.of(report.vhost(), report.upstream());
            for (UpstreamState s : UpstreamState.values()) {
                state.addMetric(List.of(report.vhost(), report.upstream(), s.code()), s == report.state() ? 1 : 0);
            }
            requests.addMetric(upstream, report.requests());
            failures.addMetric(upstream, report.failures());
            ejections.addMetric(upstream, report.ejections());
            overloaded.addMetric(upstream, report.overloaded());
        }
        GaugeMetricFamily circuit = new GaugeMetricFamily("portico_circuit_state",
                "1 for the state each vhost's circuit breaker is in", List.of("vhost", "state"));
        CounterMetricFamily opens = new CounterMetricFamily("portico_circuit_opens",
                "How often each vhost's circuit breaker opened", List.of("vhost"));
        for (CircuitReport report : health.breakers()) {
            for (CircuitState s : CircuitState.values()) {
                circuit.addMetric(List.of(report.vhost(), s.code()), s == report.state() ? 1 : 0);
            }
            opens.addMetric(List.of(report.vhost()), report.opens());
        }
        return List.of(state, requests, failures, ejections, overloaded, circuit, opens);
    }
}
