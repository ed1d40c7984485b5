package dev.portico.control.tickets;

import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretUnreadableException;
import dev.portico.proxy.route.SessionTicketKeys;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The session ticket keys in PostgreSQL ({@code tls_ticket_key}), one per rotation period, sealed with the secret
 * key. Creating a key is {@code insert ... on conflict do nothing}: of replicas creating the same period at once the
 * first wins, and all of them read that row back, so no election is needed. Worker threads only.
 */
@ApplicationScoped
public class TicketKeyStore {

    private static final Logger LOG = Logger.getLogger(TicketKeyStore.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final EntityManager entityManager;

    public TicketKeyStore(EntityManager entityManager) {
        this.entityManager = entityManager;
    }

    /** What {@code AES-GCM} binds a period's key to: a ciphertext moved to another period does not open. */
    static String context(long period) {
        return "portico:ticket:" + period;
    }

    /**
     * The keys a listener uses during {@code period}, in the order it uses them: that period's (which encrypts),
     * the next period's, then the previous period's (which only decrypt). The keys of {@code period} and the next
     * one are created first when missing; so are those found sealed by another secret key (one that was replaced
     * while no certificate was stored: ticket keys are disposable). Keys older than the previous period are deleted.
     *
     * @return {@link SessionTicketKeys#NONE} when the current period's key cannot be had
     */
    public SessionTicketKeys keysFor(long period, SecretBox box) {
        return QuarkusTransaction.requiringNew().call(() -> {
            create(period, box);
            create(period + 1, box);
            entityManager.createNativeQuery("delete from tls_ticket_key where period < :oldest")
                    .setParameter("oldest", period - 1).executeUpdate();
            Map<Long, byte[]> opened = open(period - 1, period + 1, box);
            byte[] current = opened.get(period);
            if (current == null) {
                return SessionTicketKeys.NONE;
            }
            List<Long> periods = new ArrayList<>(List.of(period));
            List<byte[]> keys = new ArrayList<>(List.of(current));
            for (long other : new long[] {period + 1, period - 1}) {
                if (opened.containsKey(other)) {
                    periods.add(other);
                    keys.add(opened.get(other));
                }
            }
            return SessionTicketKeys.of(periods, keys);
        });
    }

    /** Creates {@code period}'s key unless a readable one is stored; a key sealed by another secret key is replaced. */
    private void create(long period, SecretBox box) {
        List<?> stored = entityManager.createNativeQuery("select key_ciphertext from tls_ticket_key where period = :p")
                .setParameter("p", period).getResultList();
        if (!stored.isEmpty()) {
            byte[] sealed = (byte[]) stored.get(0);
            try {
                box.open(sealed, context(period));
                return;
            } catch (SecretUnreadableException e) {
                LOG.warnf("Session ticket key of period %d is replaced: %s", period, e.getMessage());
                entityManager.createNativeQuery("delete from tls_ticket_key where period = :p and key_ciphertext = :k")
                        .setParameter("p", period).setParameter("k", sealed).executeUpdate();
            }
        }
        byte[] key = new byte[SessionTicketKeys.KEY_BYTES];
        RANDOM.nextBytes(key);
        entityManager.createNativeQuery("insert into tls_ticket_key (period, key_ciphertext) values (:p, :k) "
                        + "on conflict (period) do nothing")
                .setParameter("p", period).setParameter("k", box.seal(key, context(period))).executeUpdate();
    }

    /** The keys stored for periods {@code from} to {@code to} that open with {@code box}, by period. */
    private Map<Long, byte[]> open(long from, long to, SecretBox box) {
        Map<Long, byte[]> opened = new HashMap<>();
        List<?> rows = entityManager.createNativeQuery("select period, key_ciphertext from tls_ticket_key "
                + "where period between :from and :to").setParameter("from", from).setParameter("to", to)
                .getResultList();
        for (Object row : rows) {
            Object[] columns = (Object[]) row;
            long period = ((Number) columns[0]).longValue();
            try {
                byte[] key = box.open((byte[]) columns[1], context(period));
                if (key.length == SessionTicketKeys.KEY_BYTES) {
                    opened.put(period, key);
                } else {
                    LOG.errorf("Session ticket key of period %d has %d bytes, not %d: not used", period, key.length,
                            SessionTicketKeys.KEY_BYTES);
                }
            } catch (SecretUnreadableException e) {
                LOG.errorf("Session ticket key of period %d not used: %s", period, e.getMessage());
            }
        }
        return opened;
    }
}
