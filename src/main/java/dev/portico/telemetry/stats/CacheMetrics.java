package dev.portico.telemetry.stats;

import dev.portico.cache.CacheRegistry;
import dev.portico.cache.ResponseStore;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * The caches' size on {@code /q/metrics}, read at scrape time: {@code portico_cache_bytes{vhost}},
 * {@code portico_cache_max_bytes{vhost}}, {@code portico_cache_entries{vhost}} and
 * {@code portico_cache_evictions_total{vhost}}. Requests by cache result are {@code portico_cache_requests_total}.
 */
@Singleton
public class CacheMetrics extends Collector {

    private final CacheRegistry caches;
    private final PrometheusMeterRegistry prometheus;

    public CacheMetrics(CacheRegistry caches, PrometheusMeterRegistry prometheus) {
        this.caches = caches;
        this.prometheus = prometheus;
    }

    void register(@Observes StartupEvent event) {
        register(prometheus.getPrometheusRegistry());
    }

    @Override
    public List<MetricFamilySamples> collect() {
        List<String> vhost = List.of("vhost");
        GaugeMetricFamily bytes = new GaugeMetricFamily("portico_cache_bytes",
                "Bytes the vhost's cache holds, charged against its share of the budget", vhost);
        GaugeMetricFamily max = new GaugeMetricFamily("portico_cache_max_bytes",
                "The vhost's effective share of the cache memory budget", vhost);
        GaugeMetricFamily entries = new GaugeMetricFamily("portico_cache_entries", "URIs stored", vhost);
        CounterMetricFamily evictions = new CounterMetricFamily("portico_cache_evictions",
                "URIs evicted to stay within the vhost's share", vhost);
        for (ResponseStore store : caches.stores()) {
            List<String> name = List.of(store.name());
            bytes.addMetric(name, store.weightedBytes());
            max.addMetric(name, store.maxBytes());
            entries.addMetric(name, store.entries());
            evictions.addMetric(name, store.evictions());
        }
        return List.of(bytes, max, entries, evictions);
    }
}
