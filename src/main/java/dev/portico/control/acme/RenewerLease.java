package dev.portico.control.acme;

import javax.sql.DataSource;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Elects the one replica that orders and renews certificates: a lease in the single {@code acme_lease} row, not an
 * advisory lock, because an ACME order outlives a transaction, and a session lock vanishes silently with its
 * connection while the order goes on.
 * <p>
 * The holder calls {@link #acquire()} every third of the TTL: while it holds the lease that renews it; when the
 * lease is free or expired it takes it over, and the epoch goes up. Every write made as the renewer is fenced with
 * the returned {@link LeaseClaim} ({@link LeaseClaim#FENCE}). All methods run JDBC: worker threads only.
 */
public class RenewerLease {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final DataSource dataSource;
    private final String holder;
    private final Duration ttl;

    /**
     * @param holder this replica's id, see {@link #replicaId()}; shown to operators as the renewer
     * @param ttl    how long the lease lasts unrenewed ({@code portico.acme.lease-ttl})
     */
    public RenewerLease(DataSource dataSource, String holder, Duration ttl) {
        this.dataSource = dataSource;
        this.holder = holder;
        this.ttl = ttl;
    }

    /** A replica id: the host name (a pod's name on Kubernetes) and a random suffix, unique per process. */
    public static String replicaId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        byte[] suffix = new byte[4];
        RANDOM.nextBytes(suffix);
        return host + "-" + HexFormat.of().formatHex(suffix);
    }

    public String holder() {
        return holder;
    }

    /**
     * Takes or renews the lease. Keeps the epoch while this replica held it already; increments it when taking it
     * from another holder (whose lease expired) or from nobody.
     *
     * @return the claim to fence writes with, or empty while another replica holds an unexpired lease
     */
    public Optional<LeaseClaim> acquire() {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(
                     "update acme_lease set epoch = case when holder = ? then epoch else epoch + 1 end, holder = ?, "
                             + "expires_at = now() + ? * interval '1 millisecond' "
                             + "where id = 1 and (holder = ? or expires_at < now()) returning epoch")) {
            update.setString(1, holder);
            update.setString(2, holder);
            update.setLong(3, ttl.toMillis());
            update.setString(4, holder);
            try (ResultSet row = update.executeQuery()) {
                return row.next() ? Optional.of(new LeaseClaim(holder, row.getLong(1))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot take the ACME renewer lease: " + e.getMessage(), e);
        }
    }

    /** Gives the lease up at once (at shutdown), so another replica need not wait out the TTL. */
    /**
     * Extends a lease this replica still holds under {@code claim}'s epoch, as a long order goes on; never takes one
     * over (that is {@link #acquire}'s job, between rounds).
     *
     * @return whether the lease is still this claim's
     */
    public boolean renew(LeaseClaim claim) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(
                     "update acme_lease set expires_at = now() + ? * interval '1 millisecond' "
                             + "where id = 1 and holder = ? and epoch = ? and expires_at >= now()")) {
            update.setLong(1, ttl.toMillis());
            update.setString(2, claim.holder());
            update.setLong(3, claim.epoch());
            return update.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot renew the ACME renewer lease: " + e.getMessage(), e);
        }
    }

    public void release() {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement update = connection.prepareStatement(
                     "update acme_lease set expires_at = '-infinity' where id = 1 and holder = ?")) {
            update.setString(1, holder);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot release the ACME renewer lease: " + e.getMessage(), e);
        }
    }

    /** The replica holding an unexpired lease, if any: for {@code /api/v1/status}. */
    public static Optional<String> currentHolder(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select holder from acme_lease where id = 1 and expires_at > now()");
             ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.ofNullable(row.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ACME renewer lease: " + e.getMessage(), e);
        }
    }
}
