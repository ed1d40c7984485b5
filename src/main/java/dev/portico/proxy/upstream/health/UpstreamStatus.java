package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.counters.FailureWindow;
import dev.portico.proxy.core.outcome.UpstreamState;
import dev.portico.proxy.upstream.balance.UpstreamHealth;
import dev.portico.proxy.upstream.balance.UpstreamWatch;
import dev.portico.vhost.OutlierDetectionSpec;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One upstream of one vhost, across snapshots while the vhost lists it: its outlier detection (consecutive 5xx and
 * gateway errors, the failure ratio over a window, ejections that grow when they repeat), its counters, and the state
 * operators see. Written by every event loop (atomics, adders and the window's per-loop rows, no lock); the failure
 * ratio is judged and the shown state kept by the sweeper alone ({@link HealthSweeper}).
 */
public final class UpstreamStatus implements UpstreamWatch {

    private final String upstream;
    private final VhostUpstreams vhost;
    private volatile HealthChecker checker;
    private volatile UpstreamHealth originHealth;
    private volatile boolean draining;
    private volatile boolean backup;
    /** The failure ratio's window, or null while the vhost does not eject by failure ratio. */
    private volatile FailureWindow window;

    private final AtomicInteger consecutive5xx = new AtomicInteger();
    private final AtomicInteger consecutiveGatewayErrors = new AtomicInteger();
    private final AtomicBoolean ejecting = new AtomicBoolean();
    private volatile boolean ejected;
    private volatile long ejectedUntilNanos;
    private volatile String ejectionReason;
    /** When the ejection in force began; read with {@link #ejected}. */
    private volatile long ejectedAtNanos;
    /** How the last ejection ended, in words. */
    private volatile String returnReason = "ejection ended";
    /** When the last ejection ended, for slow start: {@link #returnedAtNanos} is the ejecting holder's alone. */
    private volatile long lastReturnNanos = UpstreamHealth.NEVER;
    private volatile int weight = 1;
    /** Ejections in a row, decaying while the upstream stays in; touched only by the holder of {@link #ejecting}. */
    private int ejectionsInARow;
    private long returnedAtNanos;

    private final LongAdder requests = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder inFlight = new LongAdder();
    private final LongAdder ejections = new LongAdder();
    private final LongAdder overloads = new LongAdder();

    private volatile UpstreamState shown;
    private volatile Instant since = Instant.now();
    private volatile String reason;

    UpstreamStatus(VhostUpstreams vhost, String upstream, HealthChecker checker, UpstreamHealth originHealth,
                   boolean backup) {
        this.vhost = vhost;
        this.upstream = upstream;
        this.checker = checker;
        this.originHealth = originHealth;
        this.backup = backup;
        // A new backup with checks off is ready and waits: primaries are listed (a vhost has at least one).
        this.shown = checker != null ? checker.state() : backup ? UpstreamState.BACKUP_STANDBY : UpstreamState.HEALTHY;
        this.reason = checker != null ? checker.reason() : "added (no active health check)"
                + (backup ? "; a backup, standing by while a primary takes the traffic" : "");
    }

    /**
     * The configuration now in force: the checker (null when checks are off), the origin's passive health, whether it
     * is a backup, and the failure ratio's window (kept while its length and the loops stay the same).
     */
    void bind(HealthChecker checker, UpstreamHealth originHealth, boolean backup, OutlierDetectionSpec rules,
              int loops, int weight) {
        this.weight = weight;
        this.checker = checker;
        this.originHealth = originHealth;
        this.backup = backup;
        this.draining = false;
        FailureWindow kept = window;
        if (!rules.failureRatioOn()) {
            window = null;
        } else if (kept == null || !kept.window().equals(rules.failureRatioWindow())) {
            window = new FailureWindow(rules.failureRatioWindow(), loops);
        }
    }

    /**
     * Whether new requests may come: the active check (when on) passes and no ejection holds. The origin's own
     * passive health (nginx's max_fails) is the group's to read. One or two volatile loads.
     */
    @Override
    public boolean available(long nowNanos) {
        HealthChecker check = checker;
        if (check != null && !check.passing()) {
            return false;
        }
        return !ejected || nowNanos - ejectedUntilNanos >= 0;
    }

    @Override
    public void attempted() {
        requests.increment();
        inFlight.increment();
    }

    /**
     * Counts the attempt's end, and ejects after too many 5xx or gateway errors in a row; the failure ratio's window
     * counts it on this loop's row.
     */
    @Override
    public void reported(int loop, int status, String failure, long nowNanos) {
        inFlight.decrement();
        if (status < 0) {
            return;
        }
        OutlierDetectionSpec rules = vhost.outlierDetection();
        boolean failed = status >= 500 || status == 0;
        if (failed) {
            failures.increment();
        }
        FailureWindow ratio = window;
        if (ratio != null) {
            ratio.record(loop, failed, nowNanos);
        }
        if (status == 0) {
            int inARow = consecutiveGatewayErrors.incrementAndGet();
            if (rules.enabled() && rules.consecutiveGatewayErrors() > 0 && inARow >= rules.consecutiveGatewayErrors()) {
                eject(nowNanos, inARow + " consecutive gateway error" + (inARow == 1 ? "" : "s") + " (last: "
                        + failure + ")");
            }
            return;
        }
        if (consecutiveGatewayErrors.get() != 0) {
            consecutiveGatewayErrors.set(0);
        }
        if (status >= 500) {
            int inARow = consecutive5xx.incrementAndGet();
            if (rules.enabled() && rules.consecutive5xx() > 0 && inARow >= rules.consecutive5xx()) {
                eject(nowNanos, inARow + " consecutive 5xx response" + (inARow == 1 ? "" : "s") + " (last: " + status
                        + ")");
            }
        } else if (consecutive5xx.get() != 0) {
            consecutive5xx.set(0);
        }
    }

    /** The attempt was never sent: it leaves the requests sent, and counts as refused by the queue. */
    @Override
    public void overloaded() {
        inFlight.decrement();
        requests.decrement();
        overloads.increment();
    }

    /**
     * Ejects unless another loop is doing so or the vhost's cap is reached. The n-th ejection in a row lasts n base
     * times, capped (Envoy); each longest ejection time the upstream stayed in since it returned takes one off n.
     */
    private void eject(long nowNanos, String why) {
        if (ejected || !ejecting.compareAndSet(false, true)) {
            return;
        }
        if (!vhost.claimEjection()) {
            ejecting.set(false);
            return;
        }
        OutlierDetectionSpec rules = vhost.outlierDetection();
        long base = rules.baseEjectionTime().toNanos();
        long max = rules.maxEjectionTime().toNanos();
        if (ejectionsInARow > 0 && returnedAtNanos != 0) {
            ejectionsInARow = (int) Math.max(0, ejectionsInARow - (nowNanos - returnedAtNanos) / max);
        }
        ejectionsInARow++;
        long length = Math.min(base * ejectionsInARow, max);
        ejectionReason = why + ", ejected for " + HealthChecker.words(length);
        ejectedUntilNanos = nowNanos + length;
        ejectedAtNanos = nowNanos;
        ejected = true;
        consecutive5xx.set(0);
        consecutiveGatewayErrors.set(0);
        FailureWindow ratio = window;
        if (ratio != null) {
            // It comes back with a clean slate, as Envoy's counters start again each interval.
            ratio.restart(nowNanos);
        }
        ejections.increment();
    }

    /**
     * Ejects when the failure ratio over the window reached the vhost's (with enough requests): Envoy's failure
     * percentage detector, judged by the sweeper every {@link HealthSweeper#PERIOD_MILLIS} instead of once per
     * interval, so the request path never sums the window.
     */
    void judgeFailureRatio(long nowNanos) {
        FailureWindow ratio = window;
        OutlierDetectionSpec rules = vhost.outlierDetection();
        if (ratio == null || ejected || !rules.failureRatioOn()) {
            return;
        }
        FailureWindow.Counts counts = ratio.counts(nowNanos);
        if (counts.requests() >= rules.failureRatioMinRequests() && counts.ratio() >= rules.failureRatio()) {
            eject(nowNanos, counts.describe(HealthChecker.words(ratio.window().toNanos())));
        }
    }

    /**
     * Ends an ejection whose time is up (the sweeper's call); true when one ended. An ejection also ends when the
     * active check saw the upstream fail and pass again since it began: the origin was down and is back (a restart),
     * so there is no point waiting out the rest. Envoy ends an ejection at any passing check
     * ({@code successful_active_health_check_uneject_host}); only a recovery counts here, so an upstream that answers
     * its health check but 5xx to requests stays out for its time.
     */
    boolean returnIfDue(long nowNanos) {
        if (!ejected) {
            return false;
        }
        HealthChecker check = checker;
        boolean recovered = check != null && check.passing() && check.recoveredAtNanos() != UpstreamHealth.NEVER
                && check.recoveredAtNanos() - ejectedAtNanos > 0;
        if (!recovered && nowNanos - ejectedUntilNanos < 0) {
            return false;
        }
        returnReason = recovered ? "ejection ended early: the active check saw it fail and pass again"
                : "ejection ended";
        ejected = false;
        returnedAtNanos = nowNanos;
        lastReturnNanos = nowNanos;
        vhost.releaseEjection();
        ejecting.set(false);
        return true;
    }

    /** Ends an ejection at once: the upstream left the configuration, or the vhost's ejection slots are reset. */
    void forgetEjection() {
        if (ejected) {
            ejected = false;
            vhost.releaseEjection();
            ejecting.set(false);
        }
    }

    void drain() {
        draining = true;
    }

    boolean draining() {
        return draining;
    }

    boolean backup() {
        return backup;
    }

    boolean idle() {
        return inFlight.sum() <= 0;
    }

    /**
     * The state now, from what the check, the ejection and the origin's passive health say; a backup's
     * {@link UpstreamState#BACKUP_STANDBY} is the vhost's to tell, from its primaries ({@link VhostUpstreams#states}).
     */
    UpstreamState current(long nowNanos) {
        if (draining) {
            return UpstreamState.DRAINING;
        }
        HealthChecker check = checker;
        if (check != null && !check.passing()) {
            return check.state();
        }
        if (ejected && nowNanos - ejectedUntilNanos < 0) {
            return UpstreamState.EJECTED;
        }
        // A lone upstream is used even while its origin's passive health has it down (nothing to fail over to).
        UpstreamHealth origin = originHealth;
        return origin != null && !vhost.alone() && origin.isDown(nowNanos) ? UpstreamState.EJECTED
                : UpstreamState.HEALTHY;
    }

    /** Why it is in {@code state} now, in words. */
    String cause(UpstreamState state, long nowNanos, UpstreamState before) {
        HealthChecker check = checker;
        return switch (state) {
            case DRAINING -> "removed from the configuration; " + inFlight.sum() + " request(s) still in flight";
            case UNKNOWN, UNHEALTHY -> check == null ? "no check result" : check.reason();
            case EJECTED -> ejected && nowNanos - ejectedUntilNanos < 0 ? ejectionReason
                    : "connect or response failure: out for the origin's fail timeout (portico.upstream.fail-timeout)";
            case HEALTHY -> before == UpstreamState.EJECTED ? returnReason
                    : before == UpstreamState.BACKUP_STANDBY ? "no primary is available: this backup takes the traffic"
                    : check != null ? check.reason() : "added (no active health check)";
            case BACKUP_STANDBY -> (before == UpstreamState.HEALTHY ? "" : cause(UpstreamState.HEALTHY, nowNanos, before)
                    + "; ") + "a backup, standing by while a primary takes the traffic";
        };
    }

    /** The state the sweeper last saw and told. */
    UpstreamState shown() {
        return shown;
    }

    void show(UpstreamState state, String cause) {
        this.shown = state;
        this.reason = cause;
        this.since = Instant.now();
    }

    public String upstream() {
        return upstream;
    }

    Instant since() {
        return since;
    }

    String reason() {
        return reason;
    }

    HealthChecker checker() {
        return checker;
    }

    long inFlight() {
        return Math.max(0, inFlight.sum());
    }

    long requests() {
        return requests.sum();
    }

    long failures() {
        return failures.sum();
    }

    long ejections() {
        return ejections.sum();
    }

    long overloads() {
        return overloads.sum();
    }

    /** Its configured weight. */
    int weight() {
        return weight;
    }

    /**
     * When this watch last let it back into service: its ejection ended, or its active check passed again after
     * failing. The group adds its origin's passive health for slow start ({@code UpstreamGroup.weightShare}).
     */
    @Override
    public long cameBackAtNanos() {
        HealthChecker check = checker;
        return check == null ? lastReturnNanos : UpstreamHealth.later(lastReturnNanos, check.recoveredAtNanos());
    }

    /**
     * When it last came back into service whichever way it had been out, its origin's passive health included: what
     * slow start ramps from, as the group computes it, for the upstreams endpoint's {@code weightNow}.
     */
    long returnedToServiceAtNanos() {
        UpstreamHealth origin = originHealth;
        return origin == null ? cameBackAtNanos() : UpstreamHealth.later(origin.cameBackAtNanos(), cameBackAtNanos());
    }
}
