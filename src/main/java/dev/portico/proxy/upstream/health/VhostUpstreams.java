package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.RuntimeKey;
import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.UpstreamReport;
import dev.portico.proxy.core.outcome.UpstreamState;
import dev.portico.proxy.upstream.balance.SlowStart;
import dev.portico.proxy.upstream.balance.UpstreamHealth;
import dev.portico.vhost.OutlierDetectionSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The health of one vhost's upstreams, kept across snapshots (a {@link dev.portico.proxy.core.VhostRuntime} state that
 * every compile hands over): each upstream's {@link UpstreamStatus} by its URL, so an edit that keeps an upstream keeps
 * its state and counters, and the outlier detection rules with the count of ejections in force, which
 * {@code maxEjectedPercent} caps, and the vhost's circuit breaker when it has one. Upstreams a compile drops stay
 * listed as draining while requests to them finish.
 */
public final class VhostUpstreams {

    public static final RuntimeKey<VhostUpstreams> KEY = RuntimeKey.create("upstream-health", VhostUpstreams.class);
    /** Every compile hands the state over: statuses are matched by URL inside. */
    public static final Object COMPATIBILITY = "upstream-health";

    private final int loops;
    private volatile String vhost;
    private volatile OutlierDetectionSpec outlierDetection = OutlierDetectionSpec.DEFAULT;
    /** Null when the vhost has none. */
    private volatile CircuitBreaker breaker;
    /** Null when the vhost has none. */
    private volatile SlowStart slowStart;
    private volatile int maxEjected;
    private final AtomicInteger ejectedNow = new AtomicInteger();
    /** Replaced whole by each compile; read by the sweeper and the API. */
    private volatile List<UpstreamStatus> current = List.of();
    private final List<UpstreamStatus> draining = new CopyOnWriteArrayList<>();

    /** One upstream as a compile binds it. */
    public record Binding(String url, HealthChecker checker, UpstreamHealth originHealth, boolean backup,
                          int weight) {
    }

    /** What a compile bound, applied only once the whole compile succeeded ({@link #commit()}). */
    private record Pending(String vhost, UpstreamStatus[] statuses, List<Binding> bindings,
                           List<UpstreamStatus> dropped, OutlierDetectionSpec rules, CircuitBreaker breaker,
                           SlowStart slowStart) {
    }

    private volatile Pending pending;

    /** @param loops the number of event loops, each counting failure ratios on its own row */
    public VhostUpstreams(int loops) {
        this.loops = loops;
    }

    /**
     * This compile's upstreams, in order, as statuses: the current ones for URLs still listed, new ones otherwise.
     * Nothing changes for the snapshot being served until {@link #commit()}: a compile that fails later leaves it as
     * it was. Compile time only (one compile at a time).
     *
     * @param breaker the vhost's circuit breaker, or null
     * @param slowStart the vhost's slow start, or null (only shown: the group applies it)
     */
    public UpstreamStatus[] bind(String vhostName, List<Binding> upstreams, OutlierDetectionSpec rules,
                                 CircuitBreaker breaker, SlowStart slowStart) {
        Map<String, List<UpstreamStatus>> previous = new LinkedHashMap<>();
        for (UpstreamStatus status : current) {
            previous.computeIfAbsent(status.upstream(), u -> new ArrayList<>()).add(status);
        }
        UpstreamStatus[] out = new UpstreamStatus[upstreams.size()];
        for (int i = 0; i < out.length; i++) {
            Binding binding = upstreams.get(i);
            List<UpstreamStatus> same = previous.get(binding.url());
            UpstreamStatus status = same == null || same.isEmpty() ? null : same.remove(0);
            out[i] = status != null ? status
                    : new UpstreamStatus(this, binding.url(), binding.checker(), binding.originHealth(),
                            binding.backup());
        }
        List<UpstreamStatus> dropped = new ArrayList<>();
        previous.values().forEach(dropped::addAll);
        pending = new Pending(vhostName, out, List.copyOf(upstreams), dropped, rules, breaker, slowStart);
        return out;
    }

    /**
     * Where a new checker of the upstream with this URL starts: a new upstream is unknown; one a check watched keeps
     * that check's state (its settings changed); one that served unchecked stays healthy until a check fails, so
     * turning checks on never stops traffic that flows.
     */
    public HealthChecker.Seed seedOf(String url) {
        for (UpstreamStatus status : current) {
            if (status.upstream().equals(url)) {
                HealthChecker checker = status.checker();
                return checker == null ? HealthChecker.Seed.SERVING
                        : new HealthChecker.Seed(checker.state(), checker.reason());
            }
        }
        return HealthChecker.Seed.NEW;
    }

    /** Applies what the last {@link #bind} prepared: its compile is the one being published. */
    void commit() {
        Pending p = pending;
        if (p == null) {
            return;
        }
        pending = null;
        vhost = p.vhost();
        outlierDetection = p.rules();
        breaker = p.breaker();
        slowStart = p.slowStart();
        for (int i = 0; i < p.statuses().length; i++) {
            Binding binding = p.bindings().get(i);
            p.statuses()[i].bind(binding.checker(), binding.originHealth(), binding.backup(), p.rules(), loops,
                    binding.weight());
        }
        for (UpstreamStatus status : p.dropped()) {
            status.forgetEjection();
            status.drain();
            draining.add(status);
        }
        // The cap: a share of the upstreams, rounded down, so a vhost's only upstream is never ejected; one left
        // alone by this edit while ejected returns at once.
        maxEjected = p.statuses().length <= 1 ? 0 : p.statuses().length * p.rules().maxEjectedPercent() / 100;
        if (p.statuses().length == 1) {
            p.statuses()[0].forgetEjection();
        }
        current = List.of(p.statuses());
    }

    OutlierDetectionSpec outlierDetection() {
        return outlierDetection;
    }

    /** Whether the vhost has one upstream: passive health never takes it out. */
    boolean alone() {
        return current.size() == 1;
    }

    /** Takes one of the vhost's ejection slots; false when {@code maxEjectedPercent} are ejected already. */
    boolean claimEjection() {
        while (true) {
            int now = ejectedNow.get();
            if (now >= maxEjected) {
                return false;
            }
            if (ejectedNow.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    void releaseEjection() {
        ejectedNow.decrementAndGet();
    }

    /** The vhost's name as last published. */
    public String name() {
        return vhost;
    }

    /** The upstreams now listed, then those draining. */
    List<UpstreamStatus> statuses() {
        if (draining.isEmpty()) {
            return current;
        }
        List<UpstreamStatus> all = new ArrayList<>(current);
        all.addAll(draining);
        return all;
    }

    /**
     * The state of each of {@code statuses} now, in order: what each one's check, ejection and passive health say,
     * except that a backup ready to serve stands by while a primary is ready too (the group offers backups only when
     * no primary may take a request).
     */
    static UpstreamState[] states(List<UpstreamStatus> statuses, long nowNanos) {
        UpstreamState[] states = new UpstreamState[statuses.size()];
        boolean primaryReady = false;
        for (int i = 0; i < states.length; i++) {
            UpstreamStatus status = statuses.get(i);
            states[i] = status.current(nowNanos);
            primaryReady |= !status.backup() && states[i] == UpstreamState.HEALTHY;
        }
        for (int i = 0; primaryReady && i < states.length; i++) {
            if (statuses.get(i).backup() && states[i] == UpstreamState.HEALTHY) {
                states[i] = UpstreamState.BACKUP_STANDBY;
            }
        }
        return states;
    }

    /** The vhost's circuit breaker, or null. */
    CircuitBreaker breaker() {
        return breaker;
    }

    /** What the upstreams endpoint shows of the breaker; null when the vhost has none. */
    public CircuitReport breakerReport() {
        CircuitBreaker b = breaker;
        return b == null ? null : b.report(vhost);
    }

    /** Forgets the draining upstreams whose last request finished (the sweeper's call). */
    void dropDrained() {
        draining.removeIf(UpstreamStatus::idle);
    }

    /** What the upstreams endpoint shows. */
    public List<UpstreamReport> reports() {
        List<UpstreamReport> out = new ArrayList<>();
        long now = System.nanoTime();
        SlowStart ramp = slowStart;
        for (UpstreamStatus status : statuses()) {
            HealthChecker check = status.checker();
            UpstreamState state = status.shown();
            // What the policy weighs it at now: nothing while it takes no traffic, a share of its weight while it
            // ramps up after coming back (slow start).
            double share = ramp == null ? 1.0 : ramp.share(status.returnedToServiceAtNanos(), now);
            double weightNow = state.takesTraffic() ? Math.round(status.weight() * share * 100) / 100.0 : 0;
            out.add(new UpstreamReport(vhost, status.upstream(), state, status.since(), status.reason(),
                    check == null || status.draining() ? null : check.lastLatencyMillis(), status.inFlight(),
                    status.requests(), status.failures(), status.ejections(), status.overloads(), status.weight(),
                    weightNow));
        }
        return out;
    }

    /** Whether some listed upstream takes traffic now, as last shown. */
    public boolean anyHealthy() {
        for (UpstreamStatus status : current) {
            if (status.shown().takesTraffic()) {
                return true;
            }
        }
        return false;
    }
}
