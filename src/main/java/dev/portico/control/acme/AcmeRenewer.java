package dev.portico.control.acme;

import dev.portico.control.acme.AcmeVhostState.State;
import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.control.store.VhostRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;
import org.shredzone.acme4j.Login;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Obtains and renews the certificates of ACME vhosts, on the one replica holding the renewer lease; the others
 * learn of each new certificate through the configuration version it bumps (NOTIFY, then their snapshot reload).
 * Each round: take or keep the lease, bring the work list in step with the vhosts, then order for every vhost that
 * is due, one at a time. Every attempt leaves its outcome in the vhost's state (the CA's words on failure, when the
 * next attempt is). Runs on a scheduler worker thread; never two rounds at once in one replica.
 */
@Singleton
public class AcmeRenewer {

    private static final Logger LOG = Logger.getLogger(AcmeRenewer.class);
    /** Orders per round: a round must end within the lease's lifetime, and a CA's rate limits are per hour. */
    static final int ORDERS_PER_ROUND = 5;

    private final AcmeSettings settings;
    private final RenewerLease lease;
    private final AcmeEnrollment enrollment;
    private final AcmeStateStore states;
    private final OrderLedger ledger;
    private final AcmeAccounts accounts;
    private final AcmeDirectory directory;
    private final OrderRunner runner;
    private final RenewalSchedule schedule;
    private final IssuedCertificateStore certificates;
    private final SnapshotChallenges challenges;
    private final VhostRepository vhosts;
    private final SnapshotReloader reloader;
    private final MeterRegistry metrics;
    private final AcmeStateMetrics stateMetrics;
    private final ReentrantLock round = new ReentrantLock();
    /** Renews the lease while a round runs: an order (validation, issuance) can take longer than the lease lasts. */
    private final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "portico-acme-lease");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean stopping;
    private long heldEpoch = -1;

    public AcmeRenewer(AcmeSettings settings, RenewerLease lease, AcmeEnrollment enrollment, AcmeStateStore states,
                       OrderLedger ledger, AcmeAccounts accounts, AcmeDirectory directory, OrderRunner runner,
                       RenewalSchedule schedule, IssuedCertificateStore certificates, SnapshotChallenges challenges,
                       VhostRepository vhosts, SnapshotReloader reloader, MeterRegistry metrics,
                       AcmeStateMetrics stateMetrics) {
        this.stateMetrics = stateMetrics;
        this.settings = settings;
        this.lease = lease;
        this.enrollment = enrollment;
        this.states = states;
        this.ledger = ledger;
        this.accounts = accounts;
        this.directory = directory;
        this.runner = runner;
        this.schedule = schedule;
        this.certificates = certificates;
        this.challenges = challenges;
        this.vhosts = vhosts;
        this.reloader = reloader;
        this.metrics = metrics;
    }

    @Scheduled(every = "${portico.acme.check-interval}", delayed = "${portico.acme.check-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (!settings.enabled() || stopping) {
            return;
        }
        try {
            runRound();
            stateMetrics.refresh();
        } catch (RuntimeException e) {
            LOG.errorf("ACME round failed, retried in %s: %s", settings.checkInterval(), e.getMessage());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
        heartbeat.shutdownNow();
        if (heldEpoch >= 0) {
            lease.release();
        }
    }

    /**
     * One round, now (the scheduler's, or a test's).
     *
     * @return the orders attempted; -1 when another replica holds the lease or a round is already running here
     */
    public int runRound() {
        if (!round.tryLock()) {
            return -1;
        }
        try {
            Optional<LeaseClaim> claim = lease.acquire();
            if (claim.isEmpty()) {
                heldEpoch = -1;
                return -1;
            }
            if (claim.get().epoch() != heldEpoch) {
                // Taken over (or first round): orders a former holder left open would block their names forever.
                int abandoned = ledger.abandonOlderThan(claim.get());
                heldEpoch = claim.get().epoch();
                LOG.infof("This replica (%s) renews ACME certificates (lease epoch %d, %d stale orders abandoned)",
                        claim.get().holder(), heldEpoch, abandoned);
            }
            long beat = Math.max(1, settings.leaseTtl().toMillis() / 3);
            ScheduledFuture<?> renewing = heartbeat.scheduleAtFixedRate(() -> keep(claim.get()), beat, beat,
                    TimeUnit.MILLISECONDS);
            try {
                enrollment.synchronise();
                List<AcmeVhostState> due = states.due(ORDERS_PER_ROUND);
                for (AcmeVhostState state : due) {
                    if (stopping) {
                        break;
                    }
                    attempt(state, claim.get());
                }
                return due.size();
            } finally {
                renewing.cancel(false);
            }
        } finally {
            round.unlock();
        }
    }

    private void attempt(AcmeVhostState state, LeaseClaim claim) {
        List<String> names = enrollment.names(state.vhostId());
        if (names.isEmpty()) {
            return;
        }
        Optional<UUID> order = ledger.open(NamesKey.of(names), claim);
        if (order.isEmpty()) {
            return; // an order for these names is live, or the lease is lost
        }
        State running = state.certificateId().isPresent() ? State.RENEWING : State.PENDING;
        states.save(new AcmeVhostState(state.vhostId(), running, state.lastError(), state.nextAttemptAt(),
                state.attempts(), state.certificateId()), claim);
        try {
            Login login = accounts.login(directory);
            IssuedCertificate issued = runner.run(login, names, challenges,
                    url -> ledger.processing(order.get(), url, claim));
            UUID certificate = certificates.store(issued, claim);
            if (certificate == null) {
                ledger.finish(order.get(), false, claim);
                return; // the lease was lost meanwhile: the new holder orders again
            }
            Instant renewAt = schedule.renewAt(IssuedCertificateStore.notBefore(issued),
                    issued.leaf().getNotAfter().toInstant(), RenewalSchedule.askCa(login, issued.leaf()));
            states.save(new AcmeVhostState(state.vhostId(), State.VALID, Optional.empty(), renewAt, 0,
                    Optional.of(certificate)), claim);
            ledger.finish(order.get(), true, claim);
            state.certificateId().filter(previous -> !previous.equals(certificate)).ifPresent(certificates::retire);
            publish();
            count(names, "issued");
            LOG.infof("ACME certificate for %s issued, renewal at %s", names, renewAt);
        } catch (AcmeFailure failure) {
            int attempts = state.attempts() + 1;
            Instant next = schedule.retryAt(Instant.now(), attempts, failure.retryAfter());
            states.save(new AcmeVhostState(state.vhostId(), State.FAILED, Optional.of(failure.getMessage()), next,
                    attempts, state.certificateId()), claim);
            ledger.finish(order.get(), false, claim);
            count(names, "failed");
            LOG.warnf("ACME order for %s failed (attempt %d, next at %s): %s", names, attempts, next,
                    failure.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ledger.finish(order.get(), false, claim);
        } catch (RuntimeException e) {
            int attempts = state.attempts() + 1;
            states.save(new AcmeVhostState(state.vhostId(), State.FAILED, Optional.of("Portico: " + e.getMessage()),
                    schedule.retryAt(Instant.now(), attempts, Optional.empty()), attempts, state.certificateId()),
                    claim);
            ledger.finish(order.get(), false, claim);
            count(names, "failed");
            LOG.errorf(e, "ACME order for %s failed inside Portico", names);
        }
    }

    /** One heartbeat: a lost lease is only logged, the fence keeps the lost claim from writing anything. */
    private void keep(LeaseClaim claim) {
        try {
            if (!lease.renew(claim)) {
                LOG.warnf("The ACME renewer lease (epoch %d) was lost during a round; its writes are refused",
                        claim.epoch());
            }
        } catch (RuntimeException e) {
            LOG.warnf("Could not renew the ACME renewer lease: %s", e.getMessage());
        }
    }

    /** Makes every replica (this one at once) reload, so the new certificate is presented. */
    private void publish() {
        long version = QuarkusTransaction.requiringNew().call(vhosts::bumpConfigVersion);
        reloader.reloadAtLeast(version);
    }

    private void count(List<String> names, String result) {
        metrics.counter("portico.acme.orders", "names", String.join(",", names), "result", result).increment();
    }
}
