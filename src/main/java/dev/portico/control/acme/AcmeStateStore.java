package dev.portico.control.acme;

import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Each ACME vhost's state ({@code acme_certificate_state}). Writes are fenced by the renewer lease, so only the
 * current renewer records outcomes; reads are for the API, metrics and the renewer's "what is due". JDBC: worker
 * threads only.
 */
@Singleton
public class AcmeStateStore {

    private final DataSource dataSource;

    public AcmeStateStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Records {@code state} for its vhost.
     *
     * @return false when {@code claim} no longer holds the lease (nothing written)
     */
    public boolean save(AcmeVhostState state, LeaseClaim claim) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement upsert = connection.prepareStatement(
                     "insert into acme_certificate_state (vhost_id, state, last_error, next_attempt_at, attempts, "
                             + "certificate_id, updated_at) select ?, ?, ?, ?, ?, ?, now() where " + LeaseClaim.FENCE
                             + " on conflict (vhost_id) do update set state = excluded.state, "
                             + "last_error = excluded.last_error, next_attempt_at = excluded.next_attempt_at, "
                             + "attempts = excluded.attempts, certificate_id = excluded.certificate_id, "
                             + "updated_at = excluded.updated_at")) {
            upsert.setObject(1, state.vhostId());
            upsert.setString(2, state.state().column());
            upsert.setString(3, state.lastError().orElse(null));
            upsert.setTimestamp(4, Timestamp.from(state.nextAttemptAt()));
            upsert.setInt(5, state.attempts());
            upsert.setObject(6, state.certificateId().orElse(null));
            claim.bindFence(upsert, 7);
            return upsert.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record the ACME state of vhost " + state.vhostId() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The state of one vhost, if it ever had one. */
    public Optional<AcmeVhostState> find(UUID vhostId) {
        List<AcmeVhostState> found = select("select * from acme_certificate_state where vhost_id = ?", vhostId);
        return found.stream().findFirst();
    }

    /** The vhosts whose next attempt is due, earliest first, at most {@code limit}. */
    public List<AcmeVhostState> due(int limit) {
        return select("select * from acme_certificate_state where next_attempt_at <= now() "
                + "order by next_attempt_at limit ?", limit);
    }

    private List<AcmeVhostState> select(String sql, Object parameter) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(sql)) {
            select.setObject(1, parameter);
            List<AcmeVhostState> states = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    states.add(new AcmeVhostState(row.getObject("vhost_id", UUID.class),
                            AcmeVhostState.State.ofColumn(row.getString("state")),
                            Optional.ofNullable(row.getString("last_error")),
                            row.getTimestamp("next_attempt_at").toInstant(), row.getInt("attempts"),
                            Optional.ofNullable(row.getObject("certificate_id", UUID.class))));
                }
            }
            return states;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read ACME states: " + e.getMessage(), e);
        }
    }
}
