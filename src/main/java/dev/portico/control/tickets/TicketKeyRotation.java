package dev.portico.control.tickets;

import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretKeySource;
import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.proxy.route.SessionTicketKeys;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Rotates the TLS listeners' session ticket keys on the clock, the same way on every replica: the period is
 * {@code floor(epoch seconds / portico.tls.ticket-key-rotation)}. At each period change a replica makes sure the
 * keys of the current and the next period exist ({@link TicketKeyStore}), and hands the listeners
 * {@code [current, next, previous]} through the routing snapshot ({@link SnapshotReloader#useTicketKeys}).
 * <p>
 * Nothing is announced to the other replicas and the configuration version is not bumped: each replica reaches the
 * boundary on its own clock, and the key it switches to was created a whole period earlier by whichever replica got
 * there first. A bump would make every replica reload every vhost and certificate, once per replica per rotation,
 * for a change each of them can compute alone. Replicas switch up to a check interval plus their clock skew apart;
 * the next period's key is accepted for decryption for that reason, so a ticket from a replica that switched early
 * still resumes on one that has not yet.
 * <p>
 * Without a secret key there are no shared keys: BoringSSL's own random keys encrypt tickets, per process.
 */
@Singleton
public class TicketKeyRotation {

    /** After the secret key (20), before the first snapshot (100): the listeners start with the shared keys. */
    public static final int STARTUP_PRIORITY = 90;

    private static final Logger LOG = Logger.getLogger(TicketKeyRotation.class);

    private final TicketKeyStore store;
    private final SecretKeySource secrets;
    private final SnapshotReloader reloader;
    private final long rotationSeconds;
    /** The clock's period the scheduled check last rotated to; Long.MIN_VALUE: none yet, or that attempt failed. */
    private volatile long checkedPeriod = Long.MIN_VALUE;
    private volatile boolean warnedNoSecretKey;

    /**
     * @param rotation declared (with its default) by the TLS listener's settings, {@code TlsListenerSettings}, which
     *                 the control plane does not import
     */
    public TicketKeyRotation(TicketKeyStore store, SecretKeySource secrets, SnapshotReloader reloader,
                             @ConfigProperty(name = "portico.tls.ticket-key-rotation") Duration rotation) {
        this.store = store;
        this.secrets = secrets;
        this.reloader = reloader;
        if (rotation.toSeconds() < 1) {
            throw new IllegalArgumentException("portico.tls.ticket-key-rotation must be at least 1s, not " + rotation);
        }
        this.rotationSeconds = rotation.toSeconds();
    }

    void rotateAtStart(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) {
        check();
    }

    /**
     * Acts on a change of the clock's period (or after a failed attempt), not on every run: between boundaries
     * there is nothing to do, and no database access.
     */
    @Scheduled(every = "10s", delayed = "10s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        Instant now = Instant.now();
        long period = periodOf(now);
        if (period != checkedPeriod) {
            checkedPeriod = rotate(now) ? period : Long.MIN_VALUE;
        }
    }

    /** The rotation period {@code instant} falls in. */
    public long periodOf(Instant instant) {
        return Math.floorDiv(instant.getEpochSecond(), rotationSeconds);
    }

    /**
     * Makes the keys of {@code now}'s period and the next exist and hands them to the listeners.
     *
     * @return whether the listeners now have the keys of that period, or (without a secret key) their own
     */
    public boolean rotate(Instant now) {
        long period = periodOf(now);
        Optional<SecretBox> box = secrets.box();
        if (box.isEmpty()) {
            if (!warnedNoSecretKey) {
                warnedNoSecretKey = true;
                LOG.warnf("TLS session tickets use per-process keys, so a client resumes its session only on the "
                        + "replica that issued its ticket: %s", secrets.unavailableReason());
            }
            reloader.useTicketKeys(SessionTicketKeys.NONE);
            return true;
        }
        SessionTicketKeys keys;
        try {
            keys = store.keysFor(period, box.get());
        } catch (RuntimeException e) {
            LOG.errorf("Session ticket keys of period %d not read, keeping the previous ones: %s", period,
                    e.getMessage());
            return false;
        }
        if (keys.isEmpty()) {
            LOG.errorf("Session ticket key of period %d cannot be opened, TLS listeners fall back to per-process "
                    + "keys", period);
        } else {
            LOG.infof("TLS session ticket keys of periods %s in use: %d encrypts, all decrypt (rotation every %ds)",
                    keys.periods(), period, rotationSeconds);
        }
        reloader.useTicketKeys(keys);
        return !keys.isEmpty();
    }
}
