package dev.portico.control.acme;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code portico_acme_certificate_state{vhost,state}}: 1 for each ACME vhost's current state, refreshed from the
 * database every renewer round on every replica (not only the lease holder), so any replica's scrape tells the
 * truth. Worker threads only.
 */
@Singleton
public class AcmeStateMetrics {

    private final DataSource dataSource;
    private final MultiGauge states;

    public AcmeStateMetrics(DataSource dataSource, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.states = MultiGauge.builder("portico.acme.certificate.state")
                .description("1 for the current state (pending, valid, renewing, failed) of each ACME vhost")
                .register(registry);
    }

    /** Reads every ACME vhost's state and replaces the gauge's rows. */
    public void refresh() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select v.name, s.state from acme_certificate_state s join vhost v on v.id = s.vhost_id");
             ResultSet result = select.executeQuery()) {
            while (result.next()) {
                rows.add(MultiGauge.Row.of(Tags.of("vhost", result.getString(1), "state", result.getString(2)), 1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ACME states: " + e.getMessage(), e);
        }
        states.register(rows, true);
    }
}
