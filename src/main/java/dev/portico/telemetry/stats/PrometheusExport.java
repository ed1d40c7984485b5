package dev.portico.telemetry.stats;

import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.core.counters.HandshakeCounts;
import dev.portico.proxy.core.counters.VhostStats;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.RetryReason;
import dev.portico.proxy.core.outcome.TunnelClose;
import dev.portico.telemetry.Drops;
import dev.portico.telemetry.stats.offloop.StatsLedger;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;

/**
 * Exposes the live statistics on {@code /q/metrics}, read from the per-loop slots at scrape time: the hot path
 * pays nothing for Prometheus. Series: {@code portico_requests_total{status_class,vhost}},
 * {@code portico_request_duration_seconds{vhost}} and {@code portico_upstream_duration_seconds{vhost}}
 * (histograms), {@code portico_local_replies_total{reason}}, {@code portico_bytes_received_total{vhost}},
 * {@code portico_bytes_sent_total{vhost}}, {@code portico_in_flight_requests{vhost}},
 * {@code portico_client_connections}, {@code portico_tls_handshakes_total{resumed}},
 * {@code portico_dropped_total{what}}, and for connections that switched protocols (WebSocket):
 * {@code portico_tunnels_open{vhost}}, {@code portico_tunnels_closed_total{reason,vhost}},
 * {@code portico_tunnel_bytes_received_total{vhost}}, {@code portico_tunnel_bytes_sent_total{vhost}} and
 * {@code portico_tunnel_duration_seconds_total{vhost}} (counted as each tunnel closes), and for retries:
 * {@code portico_retries_total{reason,vhost}} and {@code portico_retry_budget_exhausted_total{vhost}}.
 */
@Singleton
public class PrometheusExport extends Collector {

    static final double[] BOUNDS_SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
            30, 60};

    private final StatsRegistry registry;
    private final PrometheusMeterRegistry prometheus;
    private final Drops drops;
    private final StatsLedger ledger;

    public PrometheusExport(StatsRegistry registry, PrometheusMeterRegistry prometheus, Drops drops,
                            StatsLedger ledger) {
        this.registry = registry;
        this.ledger = ledger;
        this.drops = drops;
        this.prometheus = prometheus;
    }

    void register(@Observes StartupEvent event) {
        register(prometheus.getPrometheusRegistry());
    }

    @Override
    public List<MetricFamilySamples> collect() {
        CounterMetricFamily requests = new CounterMetricFamily("portico_requests",
                "Requests completed by the data plane, by vhost and status class", List.of("status_class", "vhost"));
        CounterMetricFamily bytesIn = new CounterMetricFamily("portico_bytes_received",
                "Request body bytes received from clients", List.of("vhost"));
        CounterMetricFamily bytesOut = new CounterMetricFamily("portico_bytes_sent",
                "Response body bytes sent to clients", List.of("vhost"));
        GaugeMetricFamily inFlight = new GaugeMetricFamily("portico_in_flight_requests",
                "Requests being served", List.of("vhost"));
        List<MetricFamilySamples.Sample> latency = new ArrayList<>();
        List<MetricFamilySamples.Sample> upstream = new ArrayList<>();
        long[] reasons = new long[LocalReason.values().length];
        CounterMetricFamily cache = new CounterMetricFamily("portico_cache_requests",
                "Requests of cache-enabled vhosts by what the cache did", List.of("result", "vhost"));
        TunnelFamilies tunnels = new TunnelFamilies();
        CounterMetricFamily retries = new CounterMetricFamily("portico_retries",
                "Upstream attempts made again after a failed one, by why the attempt before failed",
                List.of("reason", "vhost"));
        CounterMetricFamily retryBudgetExhausted = new CounterMetricFamily("portico_retry_budget_exhausted",
                "Retries the vhost's settings allowed but its retry budget refused", List.of("vhost"));

        List<VhostStats> all = registry.vhosts();
        all.add(registry.unmatched());
        for (VhostStats vhost : all) {
            VhostStats.Totals totals = vhost.totals();
            String name = vhost.name();
            for (int c = 1; c <= 5; c++) {
                requests.addMetric(List.of(c + "xx", name), totals.statusClass(c));
            }
            bytesIn.addMetric(List.of(name), totals.bytesIn());
            bytesOut.addMetric(List.of(name), totals.bytesOut());
            inFlight.addMetric(List.of(name), totals.inFlight());
            for (LocalReason reason : LocalReason.values()) {
                reasons[reason.ordinal()] += totals.reason(reason);
            }
            for (CacheOutcome outcome : CacheOutcome.values()) {
                long n = totals.cache(outcome);
                if (n > 0) {
                    cache.addMetric(List.of(outcome.code(), name), n);
                }
            }
            tunnels.add(name, totals);
            for (RetryReason why : RetryReason.values()) {
                retries.addMetric(List.of(why.code(), name), totals.retries(why));
            }
            retryBudgetExhausted.addMetric(List.of(name), totals.retryBudgetExhausted());
            VhostStats.CumulativeLatency cumulative = ledger.cumulative(vhost, BOUNDS_SECONDS);
            addHistogram(latency, "portico_request_duration_seconds", name, cumulative.buckets(),
                    cumulative.count(), cumulative.sumSeconds());
            addHistogram(upstream, "portico_upstream_duration_seconds", name, cumulative.upstreamBuckets(),
                    cumulative.upstreamCount(), cumulative.upstreamSumSeconds());
        }
        CounterMetricFamily localReplies = new CounterMetricFamily("portico_local_replies",
                "Requests Portico answered or ended itself (and HTTP/2 connections it closed for a flood), by reason",
                List.of("reason"));
        for (LocalReason reason : LocalReason.values()) {
            localReplies.addMetric(List.of(reason.code()),
                    reasons[reason.ordinal()] + registry.connectionRefusals().total(reason));
        }
        GaugeMetricFamily connections = new GaugeMetricFamily("portico_client_connections",
                "Open client connections to the data plane", registry.connections().active());
        CounterMetricFamily handshakes = new CounterMetricFamily("portico_tls_handshakes",
                "TLS handshakes completed by the data plane, by whether they resumed a session", List.of("resumed"));
        for (HandshakeCounts.Kind kind : HandshakeCounts.Kind.values()) {
            handshakes.addMetric(List.of(kind.label()), registry.handshakes().total(kind));
        }
        CounterMetricFamily dropped = new CounterMetricFamily("portico_dropped",
                "Accounting work dropped rather than slowing requests", List.of("what"));
        for (Drops.Kind drop : Drops.Kind.values()) {
            dropped.addMetric(List.of(drop.code()), drops.count(drop));
        }
        List<MetricFamilySamples> families = new ArrayList<>(List.of(requests, bytesIn, bytesOut, inFlight,
                localReplies, connections, handshakes, dropped, cache));
        tunnels.addTo(families);
        families.add(retries);
        families.add(retryBudgetExhausted);
        families.add(new MetricFamilySamples("portico_request_duration_seconds", Type.HISTOGRAM,
                        "Time from request head to the end of the response (for a tunnel: to its 101)", latency));
        families.add(new MetricFamilySamples("portico_upstream_duration_seconds", Type.HISTOGRAM,
                "Time from connecting to the upstream to its response head", upstream));
        return families;
    }

    /** The series of connections that switched protocols (WebSocket tunnels), by vhost. */
    private static final class TunnelFamilies {
        private final GaugeMetricFamily open = new GaugeMetricFamily("portico_tunnels_open",
                "Connections switched to another protocol (WebSocket) and relayed now", List.of("vhost"));
        private final CounterMetricFamily closed = new CounterMetricFamily("portico_tunnels_closed",
                "Tunnels closed, by why", List.of("reason", "vhost"));
        private final CounterMetricFamily bytesIn = new CounterMetricFamily("portico_tunnel_bytes_received",
                "Bytes closed tunnels carried from clients to upstreams", List.of("vhost"));
        private final CounterMetricFamily bytesOut = new CounterMetricFamily("portico_tunnel_bytes_sent",
                "Bytes closed tunnels carried from upstreams to clients", List.of("vhost"));
        private final CounterMetricFamily seconds = new CounterMetricFamily("portico_tunnel_duration_seconds",
                "Lifetimes of the closed tunnels, summed", List.of("vhost"));

        void add(String vhost, VhostStats.Totals totals) {
            open.addMetric(List.of(vhost), totals.tunnelsOpen());
            for (TunnelClose why : TunnelClose.values()) {
                long n = totals.tunnelsClosed(why);
                if (n > 0) {
                    closed.addMetric(List.of(why.code(), vhost), n);
                }
            }
            bytesIn.addMetric(List.of(vhost), totals.tunnelBytesIn());
            bytesOut.addMetric(List.of(vhost), totals.tunnelBytesOut());
            seconds.addMetric(List.of(vhost), totals.tunnelSeconds());
        }

        void addTo(List<MetricFamilySamples> families) {
            families.addAll(List.of(open, closed, bytesIn, bytesOut, seconds));
        }
    }

    private static void addHistogram(List<MetricFamilySamples.Sample> samples, String name, String vhost, long[] buckets, long count,
                                     double sum) {
        for (int i = 0; i < BOUNDS_SECONDS.length; i++) {
            samples.add(new MetricFamilySamples.Sample(name + "_bucket", List.of("vhost", "le"), List.of(vhost,
                    Collector.doubleToGoString(BOUNDS_SECONDS[i])), buckets[i]));
        }
        samples.add(new MetricFamilySamples.Sample(name + "_bucket", List.of("vhost", "le"), List.of(vhost, "+Inf"), count));
        samples.add(new MetricFamilySamples.Sample(name + "_count", List.of("vhost"), List.of(vhost), count));
        samples.add(new MetricFamilySamples.Sample(name + "_sum", List.of("vhost"), List.of(vhost), sum));
    }
}
