package dev.portico.control.acme;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.security.SecureRandom;
import java.time.Duration;

/**
 * The ACME pieces configured from {@code portico.acme.*}, for the renewer to inject. The renewer (a scheduled worker
 * job, not part of this package yet) composes them:
 * <ol>
 *   <li>{@link RenewerLease#acquire()} every third of the TTL; without a claim, do nothing this round. After taking
 *       the lease over, {@link OrderLedger#abandonOlderThan} frees the names a former holder left mid-order.</li>
 *   <li>{@link AcmeStateStore#due} picks the vhosts to (re)order.</li>
 *   <li>{@link OrderLedger#open} with {@link NamesKey#of}; empty means another live order or a lost lease: skip.</li>
 *   <li>{@link AcmeAccounts#login} with the {@link AcmeDirectory} produced here, then
 *       {@link OrderRunner#run} with the {@link ChallengeStore} (wrapped so {@code publish} also waits until the data
 *       plane's snapshot has the token).</li>
 *   <li>On success: store {@link IssuedCertificate} in the certificate store, {@link AcmeStateStore#save} VALID with
 *       {@link RenewalSchedule#renewAt} (ARI window from {@link RenewalSchedule#askCa}), and
 *       {@link OrderLedger#finish}. On {@link AcmeFailure}: save FAILED with its message and
 *       {@link RenewalSchedule#retryAt}(now, attempts + 1, {@link AcmeFailure#retryAfter()}).</li>
 * </ol>
 */
@Singleton
public class AcmeComponents {

    /** Validation, readiness and issuance each get this long before the order is given up as failed. */
    static final Duration ORDER_PATIENCE = Duration.ofMinutes(2);

    @Produces
    @Singleton
    AcmeDirectory directory(AcmeSettings settings) {
        return AcmeDirectory.from(settings);
    }

    @Produces
    @Singleton
    RenewerLease lease(DataSource dataSource, AcmeSettings settings) {
        return new RenewerLease(dataSource, RenewerLease.replicaId(), settings.leaseTtl());
    }

    @Produces
    @Singleton
    RenewalSchedule schedule(AcmeSettings settings) {
        return new RenewalSchedule(settings.renewAtFraction(), new SecureRandom());
    }

    @Produces
    @Singleton
    OrderRunner orderRunner() {
        return new OrderRunner(ORDER_PATIENCE);
    }
}
