package dev.portico.telemetry.stats;

import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.DataPlaneServer;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.prometheus.client.Collector;
import io.prometheus.client.GaugeMetricFamily;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * {@code portico_certificate_expiry_seconds{certificate,name}} on {@code /q/metrics}: seconds until each certificate
 * the TLS listener presents expires (negative once it has), read at scrape time from the snapshot in service. Labelled
 * by the stored certificate's id (what the API and the vhosts' {@code tls.certificate} name) and the first server
 * name it is presented for ({@code ""} for the default certificate alone), so an alert such as
 * {@code portico_certificate_expiry_seconds < 14 * 86400} says which certificate to renew and for which site.
 */
@Singleton
public class CertificateMetrics extends Collector {

    private final DataPlaneServer dataPlane;
    private final PrometheusMeterRegistry prometheus;

    public CertificateMetrics(DataPlaneServer dataPlane, PrometheusMeterRegistry prometheus) {
        this.dataPlane = dataPlane;
        this.prometheus = prometheus;
    }

    void register(@Observes StartupEvent event) {
        register(prometheus.getPrometheusRegistry());
    }

    @Override
    public List<MetricFamilySamples> collect() {
        GaugeMetricFamily expiry = new GaugeMetricFamily("portico_certificate_expiry_seconds",
                "Seconds until a certificate the TLS listener presents expires (negative: expired)",
                List.of("certificate", "name"));
        long now = System.currentTimeMillis();
        for (TlsTable.Presented certificate : dataPlane.presentedCertificates().presented()) {
            String id = certificate.certificateId() == null ? "" : certificate.certificateId();
            String name = certificate.names().isEmpty() ? "" : certificate.names().get(0);
            expiry.addMetric(List.of(id, name), (certificate.leaf().getNotAfter().getTime() - now) / 1000.0);
        }
        return List.of(expiry);
    }
}
