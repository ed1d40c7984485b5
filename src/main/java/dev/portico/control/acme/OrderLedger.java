package dev.portico.control.acme;

import javax.sql.DataSource;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * The orders Portico made ({@code acme_order}), and the guarantee that there are never two live orders for the same
 * names: {@link #open} inserts a {@code pending} row, which the unique partial index on {@code names_key} refuses
 * while another order for those names is pending or processing, and which the lease fence refuses unless the caller
 * still holds the renewer lease. JDBC: worker threads only.
 */
@Singleton
public class OrderLedger {

    /** The index that keeps one live order per set of names (V4__acme.sql). */
    static final String ONE_LIVE_ORDER_INDEX = "acme_order_one_live_per_names";

    private final DataSource dataSource;

    public OrderLedger(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Records a new live order for {@code namesKey}.
     *
     * @return the order row's id; empty when another order for these names is live, or {@code claim} no longer
     *         holds the lease (then do not order)
     */
    public Optional<UUID> open(String namesKey, LeaseClaim claim) {
        UUID id = UUID.randomUUID();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "insert into acme_order (id, names_key, state, epoch) select ?, ?, 'pending', ? where "
                             + LeaseClaim.FENCE + " on conflict (names_key) where state in ('pending', 'processing') "
                             + "do nothing")) {
            insert.setObject(1, id);
            insert.setString(2, namesKey);
            insert.setLong(3, claim.epoch());
            claim.bindFence(insert, 4);
            return insert.executeUpdate() == 1 ? Optional.of(id) : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record an ACME order: " + e.getMessage(), e);
        }
    }

    /** Notes the CA's URL of the order and that it is being processed. */
    public boolean processing(UUID id, String orderUrl, LeaseClaim claim) {
        return update("update acme_order set state = 'processing', order_url = ? where id = ? and "
                + LeaseClaim.FENCE, orderUrl, id, claim);
    }

    /**
     * Ends a live order, which frees its names for the next one.
     *
     * @param valid whether a certificate was issued ({@code valid}) or not ({@code invalid})
     */
    public boolean finish(UUID id, boolean valid, LeaseClaim claim) {
        return update("update acme_order set state = ?, finished_at = now() where id = ? and " + LeaseClaim.FENCE,
                valid ? "valid" : "invalid", id, claim);
    }

    /**
     * Ends the live orders a former holder left behind (it died or was fenced out mid-order), so their names can be
     * ordered again; called by a new holder after taking the lease over.
     *
     * @return how many were ended
     */
    public int abandonOlderThan(LeaseClaim claim) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(
                     "update acme_order set state = 'invalid', finished_at = now() where state in ('pending', "
                             + "'processing') and epoch < ? and " + LeaseClaim.FENCE)) {
            update.setLong(1, claim.epoch());
            claim.bindFence(update, 2);
            return update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot end abandoned ACME orders: " + e.getMessage(), e);
        }
    }

    private boolean update(String sql, Object first, UUID id, LeaseClaim claim) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(sql)) {
            update.setObject(1, first);
            update.setObject(2, id);
            claim.bindFence(update, 3);
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot update an ACME order: " + e.getMessage(), e);
        }
    }
}
