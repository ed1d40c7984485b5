package dev.portico.control.acme;

import jakarta.inject.Singleton;

import dev.portico.control.store.AcmeSnapshotSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP-01 tokens in PostgreSQL ({@code acme_challenge}), so any replica can answer the CA, not only the one that
 * ordered. Every method runs JDBC: call them on a worker thread, never on an event loop.
 * <p>
 * For the data plane: {@link #live()} lists the tokens to put into a snapshot, and {@link #keyAuthorization} looks
 * one up for a replica whose snapshot does not have it yet (a late NOTIFY).
 */
@Singleton
public class ChallengeStore implements ChallengePublisher, AcmeSnapshotSource {

    /**
     * How long a published token stays answerable if it is never withdrawn (the ordering replica died): a CA
     * validates within minutes, and Let's Encrypt's pending authorizations last 7 days but are not retried by us.
     */
    static final Duration LIFETIME = Duration.ofHours(1);

    private final DataSource dataSource;

    public ChallengeStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Map<String, String> liveChallenges() {
        return live();
    }

    @Override
    public void publish(String token, String keyAuthorization, String namesKey) {
        update("insert into acme_challenge (token, key_authorization, names_key, expires_at) values (?, ?, ?, ?) "
                        + "on conflict (token) do update set key_authorization = excluded.key_authorization, "
                        + "names_key = excluded.names_key, expires_at = excluded.expires_at",
                token, keyAuthorization, namesKey, Timestamp.from(Instant.now().plus(LIFETIME)));
    }

    @Override
    public void withdraw(String token) {
        update("delete from acme_challenge where token = ?", token);
    }

    /** The key authorization to answer for {@code token}, while it is published and not expired. */
    public Optional<String> keyAuthorization(String token) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select key_authorization from acme_challenge where token = ? and expires_at > now()")) {
            select.setString(1, token);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read ACME challenge tokens: " + e.getMessage(), e);
        }
    }

    /** Every live token and its key authorization, for the data plane's snapshot. */
    public Map<String, String> live() {
        Map<String, String> live = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select token, key_authorization from acme_challenge where expires_at > now() order by token");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                live.put(rows.getString(1), rows.getString(2));
            }
            return live;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read ACME challenge tokens: " + e.getMessage(), e);
        }
    }

    /** Deletes expired tokens (left by a replica that died mid-order); answers how many. */
    public int purgeExpired() {
        return update("delete from acme_challenge where expires_at <= now()");
    }

    private int update(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write ACME challenge tokens: " + e.getMessage(), e);
        }
    }
}
