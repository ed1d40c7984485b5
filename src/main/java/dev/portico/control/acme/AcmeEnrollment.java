package dev.portico.control.acme;

import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Which vhosts want automatic certificates, kept in step with their definitions: every enabled vhost with
 * {@code tls.acme} has a state row (pending until its first certificate), and a vhost that no longer asks loses its
 * row. The rows are the renewer's work list. Worker threads only.
 */
@Singleton
public class AcmeEnrollment {

    private final DataSource dataSource;

    public AcmeEnrollment(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Adds the vhosts that ask and have no row, drops the rows of those that no longer ask. */
    public void synchronise() {
        try (Connection connection = dataSource.getConnection()) {
            try (PreparedStatement enrol = connection.prepareStatement("""
                    insert into acme_certificate_state (vhost_id, state, next_attempt_at)
                    select id, 'pending', now() from vhost
                    where enabled and definition -> 'tls' ->> 'acme' = 'true'
                    on conflict (vhost_id) do nothing""")) {
                enrol.executeUpdate();
            }
            try (PreparedStatement drop = connection.prepareStatement("""
                    delete from acme_certificate_state s using vhost v
                    where v.id = s.vhost_id and (not v.enabled or coalesce(v.definition -> 'tls' ->> 'acme', 'false') <> 'true')""")) {
                drop.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot update the ACME vhosts: " + e.getMessage(), e);
        }
    }

    /** The host names of a vhost, sorted, as the order asks for them; empty when the vhost is gone. */
    public List<String> names(UUID vhostId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select hostname from vhost_hostname where vhost_id = ? order by hostname")) {
            select.setObject(1, vhostId);
            List<String> names = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
            return names;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the names of vhost " + vhostId + ": " + e.getMessage(), e);
        }
    }

    /** Makes the vhost's next attempt due now (an operator's forced renewal); false when it has no ACME state. */
    public boolean dueNow(UUID vhostId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(
                     "update acme_certificate_state set next_attempt_at = now() where vhost_id = ?")) {
            update.setObject(1, vhostId);
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot schedule vhost " + vhostId + ": " + e.getMessage(), e);
        }
    }
}
