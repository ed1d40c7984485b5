package dev.portico.control.acme;

import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One renewer among replicas: two {@link RenewerLease}s on one database, as two replicas would be; the lease's
 * fencing epoch; and the index that refuses a second live order for the same names.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RenewerLeaseTest {

    private static final Duration TTL = Duration.ofSeconds(1);

    @Inject
    DataSource dataSource;

    @Inject
    OrderLedger orders;

    @BeforeEach
    void freeTheLease() throws SQLException {
        execute("update acme_lease set holder = null, expires_at = '-infinity' where id = 1");
        execute("delete from acme_order");
    }

    @Test
    void exactlyOneHolderAndATakeOverAfterTheTtlGetsAHigherEpoch() {
        RenewerLease first = new RenewerLease(dataSource, "replica-a", TTL);
        RenewerLease second = new RenewerLease(dataSource, "replica-b", TTL);

        LeaseClaim firstClaim = first.acquire().orElseThrow();
        assertEquals(Optional.empty(), second.acquire(), "the lease is held");
        assertEquals(Optional.of(firstClaim), first.acquire(), "renewing keeps the epoch");
        assertEquals(Optional.of("replica-a"), RenewerLease.currentHolder(dataSource));

        // replica-a stops renewing (it died or stalled): replica-b takes over once the lease expires
        LeaseClaim secondClaim = Eventually.value(Duration.ofSeconds(10), second::acquire, Optional::isPresent)
                .orElseThrow();

        assertTrue(secondClaim.epoch() > firstClaim.epoch(), firstClaim + " then " + secondClaim);
        assertEquals(Optional.empty(), first.acquire(), "the former holder does not get it back");
        assertEquals(Optional.of("replica-b"), RenewerLease.currentHolder(dataSource));
    }

    @Test
    void aHolderRenewingDuringALongRoundKeepsTheLeaseAndALostClaimIsNotRenewed() throws Exception {
        RenewerLease first = new RenewerLease(dataSource, "replica-a", TTL);
        RenewerLease second = new RenewerLease(dataSource, "replica-b", TTL);
        LeaseClaim claim = first.acquire().orElseThrow();

        // A round three lease lifetimes long, renewed by its heartbeat: the other replica never gets in.
        long end = System.nanoTime() + 3 * TTL.toNanos();
        while (System.nanoTime() < end) {
            assertTrue(first.renew(claim), "the holder's claim is renewed");
            assertEquals(Optional.empty(), second.acquire(), "the lease is kept while renewed");
            Thread.sleep(TTL.toMillis() / 4);
        }

        first.release();
        LeaseClaim taken = second.acquire().orElseThrow();
        assertEquals(false, first.renew(claim), "a claim taken over is not renewed");
        assertEquals(Optional.of("replica-b"), RenewerLease.currentHolder(dataSource));
        assertTrue(taken.epoch() > claim.epoch());
    }

    @Test
    void aFormerHoldersFencedWriteIsRefused() {
        RenewerLease first = new RenewerLease(dataSource, "replica-a", TTL);
        RenewerLease second = new RenewerLease(dataSource, "replica-b", TTL);
        LeaseClaim stale = first.acquire().orElseThrow();
        first.release();
        LeaseClaim current = second.acquire().orElseThrow();

        Optional<UUID> refused = orders.open("stale.example", stale);
        Optional<UUID> accepted = orders.open("current.example", current);

        assertEquals(Optional.empty(), refused, "epoch " + stale.epoch() + " is no longer the lease's");
        assertTrue(accepted.isPresent());
        assertEquals(1, count("select count(*) from acme_order"));
        assertEquals(false, orders.finish(accepted.get(), true, stale), "finishing is fenced too");
        assertEquals(true, orders.finish(accepted.get(), true, current));
    }

    @Test
    void neverTwoLiveOrdersForTheSameNames() throws SQLException {
        LeaseClaim claim = new RenewerLease(dataSource, "replica-a", Duration.ofMinutes(1)).acquire().orElseThrow();
        String names = NamesKey.of(java.util.List.of("WWW.Shop.example", "shop.example"));

        UUID live = orders.open(names, claim).orElseThrow();
        assertEquals(Optional.empty(), orders.open(NamesKey.of(java.util.List.of("shop.example", "www.shop.example")),
                claim), "the same names in another order and case are the same key");
        SQLException duplicate = assertThrows(SQLException.class, () -> execute("insert into acme_order "
                + "(id, names_key, state, epoch) values (gen_random_uuid(), '" + names + "', 'processing', 1)"));
        assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());
        assertTrue(duplicate.getMessage().contains(OrderLedger.ONE_LIVE_ORDER_INDEX), duplicate.getMessage());

        assertTrue(orders.finish(live, false, claim));
        assertTrue(orders.open(names, claim).isPresent(), "a finished order frees its names");
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private long count(String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             var row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
