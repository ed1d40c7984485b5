package dev.portico.control.acme;

import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.control.store.VhostRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.inject.Singleton;

/**
 * Publishes HTTP-01 challenges where every replica's data plane answers them: stored ({@link ChallengeStore}), then
 * a configuration version bump, which this replica reloads before the CA is told to validate and the others reload
 * on the NOTIFY. A short grace covers replicas whose notification is still on its way.
 */
@Singleton
public class SnapshotChallenges implements ChallengePublisher {

    /** How long other replicas get to reload before the CA may come: NOTIFY takes milliseconds. */
    static final long REPLICA_GRACE_MILLIS = 500;

    private final ChallengeStore store;
    private final VhostRepository vhosts;
    private final SnapshotReloader reloader;

    public SnapshotChallenges(ChallengeStore store, VhostRepository vhosts, SnapshotReloader reloader) {
        this.store = store;
        this.vhosts = vhosts;
        this.reloader = reloader;
    }

    @Override
    public void publish(String token, String keyAuthorization, String namesKey) {
        store.publish(token, keyAuthorization, namesKey);
        reloader.reloadAtLeast(QuarkusTransaction.requiringNew().call(vhosts::bumpConfigVersion));
        try {
            Thread.sleep(REPLICA_GRACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void withdraw(String token) {
        store.withdraw(token);
    }
}
