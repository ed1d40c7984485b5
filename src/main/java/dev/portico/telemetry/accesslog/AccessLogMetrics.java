package dev.portico.telemetry.accesslog;

import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.GaugeMetricFamily;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * {@code portico_access_log_writable} on {@code /q/metrics}: 1 while the access log's destination takes lines, 0
 * when it cannot be opened or its last write failed; absent when the access log is off, so an alert on
 * {@code == 0} cannot fire for a log nobody asked for. The lines lost are
 * {@code portico_dropped_total{what="access_log_lines"}}.
 */
@Singleton
public class AccessLogMetrics extends Collector {

    private final AccessLog accessLog;
    private final PrometheusMeterRegistry prometheus;

    public AccessLogMetrics(AccessLog accessLog, PrometheusMeterRegistry prometheus) {
        this.accessLog = accessLog;
        this.prometheus = prometheus;
    }

    void register(@Observes StartupEvent event) {
        register(prometheus.getPrometheusRegistry());
    }

    @Override
    public List<MetricFamilySamples> collect() {
        AccessLog.Status status = accessLog.status();
        if (!status.enabled()) {
            return List.of();
        }
        GaugeMetricFamily writable = new GaugeMetricFamily("portico_access_log_writable",
                "1 while the access log's destination takes lines, 0 when it cannot be opened or the last write failed",
                List.of("destination"));
        writable.addMetric(List.of(status.destination()), status.writable() ? 1 : 0);
        return List.of(writable);
    }
}
