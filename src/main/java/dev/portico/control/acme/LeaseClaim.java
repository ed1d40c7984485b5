package dev.portico.control.acme;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The renewer lease as one holder took it: its holder id and the epoch it got. Writes made on the strength of the
 * lease carry {@link #FENCE} in their {@code where} clause, so they apply only while this claim is still the current
 * one; a holder that stalled past its lease (a long GC pause, a lost network) and was taken over writes nothing.
 *
 * @param holder the replica holding the lease
 * @param epoch  incremented each time the lease changes hands
 */
public record LeaseClaim(String holder, long epoch) {

    /** SQL condition true only while this claim holds the lease: bind it with {@link #bindFence}. */
    public static final String FENCE = "exists (select 1 from acme_lease where id = 1 and holder = ? and epoch = ? "
            + "and expires_at > now())";

    /** Binds {@link #FENCE}'s two parameters starting at {@code index}; answers the next free index. */
    public int bindFence(PreparedStatement statement, int index) throws SQLException {
        statement.setString(index, holder);
        statement.setLong(index + 1, epoch);
        return index + 2;
    }
}
