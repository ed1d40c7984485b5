package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.LoopState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A vhost's upstreams, the policy that picks among them ({@link UpstreamSelector}; today nginx's smooth weighted round
 * robin) and the vhost's per-loop selector states, which outlive snapshots while the policy's compatibility holds
 * ({@link UpstreamRuntime}). Immutable and shared by every event loop.
 */
public final class UpstreamGroup implements UpstreamAvailability {

    /** A group may have at most this many upstreams (one bit each in the per-request "tried" mask). */
    public static final int MAX_UPSTREAMS = 64;

    private final UpstreamTarget[] targets;
    private final UpstreamSelector<Object> selector;
    private final UpstreamRuntime runtime;
    private final UpstreamWatch[] watches;

    /**
     * @param runtime the vhost's selector states: claim it with {@code selector.compatibility()}
     */
    public UpstreamGroup(List<UpstreamTarget> targets, UpstreamSelector<?> selector, UpstreamRuntime runtime) {
        this(targets, selector, runtime, null);
    }

    /**
     * @param watches each target's active check and outlier detection, in the same order; null for none
     */
    @SuppressWarnings("unchecked")
    public UpstreamGroup(List<UpstreamTarget> targets, UpstreamSelector<?> selector, UpstreamRuntime runtime,
                         UpstreamWatch[] watches) {
        if (targets.isEmpty() || targets.size() > MAX_UPSTREAMS) {
            throw new IllegalArgumentException("a group has 1 to " + MAX_UPSTREAMS + " upstreams");
        }
        this.targets = targets.toArray(new UpstreamTarget[0]);
        if (watches == null) {
            watches = new UpstreamWatch[targets.size()];
            Arrays.fill(watches, UpstreamWatch.NONE);
        }
        this.watches = watches.clone();
        // The runtime was claimed with this selector's compatibility, which names its kind: its states are this
        // selector's type.
        this.selector = (UpstreamSelector<Object>) selector;
        this.runtime = runtime;
    }

    /** nginx's smooth weighted round robin over {@code targets}, by their weights. */
    public static UpstreamSelector<?> roundRobin(List<UpstreamTarget> targets) {
        List<String> origins = new ArrayList<>(targets.size());
        int[] weights = new int[targets.size()];
        for (int i = 0; i < weights.length; i++) {
            origins.add(targets.get(i).spec().origin());
            weights[i] = targets.get(i).spec().weight();
        }
        return new SmoothWeightedRoundRobin(origins, weights);
    }

    @Override
    public int size() {
        return targets.length;
    }

    @Override
    public boolean available(int index, long nowNanos) {
        return targets[index].health().available(nowNanos) && watches[index].available(nowNanos);
    }

    public UpstreamTarget target(int index) {
        return targets[index];
    }

    /**
     * The upstream for the next attempt of a request, or null when every one was tried or none is available.
     *
     * @param tried bit i set when target i was already tried
     */
    public UpstreamTarget pick(LoopState loop, long tried, long nowNanos) {
        // A lone upstream is never taken out by passive health (the selectors use it regardless), but one whose
        // active check has not passed gets nothing: that is what the check is for.
        if (targets.length == 1 && !watches[0].available(nowNanos)) {
            return null;
        }
        int index = selector.pick(runtime.loopState(selector, loop.index()), this, tried, nowNanos);
        if (index < 0) {
            return null;
        }
        watches[index].attempted();
        return targets[index];
    }

    /**
     * How an attempt went: passive health (nginx's {@code max_fails}/{@code fail_timeout}) counts upstream failures,
     * and the selector hears every outcome. A client that left is no outcome.
     */
    public void report(LoopState loop, UpstreamTarget target, AttemptOutcome outcome, long nowNanos) {
        report(loop, target, outcome, 0, null, nowNanos);
    }

    /**
     * As {@link #report(LoopState, UpstreamTarget, AttemptOutcome, long)}, with what outlier detection needs: the
     * response's {@code status} (consecutive 5xx), or what failed in words.
     */
    public void report(LoopState loop, UpstreamTarget target, AttemptOutcome outcome, int status, String failure,
                       long nowNanos) {
        watches[target.index()].reported(outcome == AttemptOutcome.RESPONDED ? Math.max(status, 100) : 0,
                failure == null ? outcome.name().toLowerCase(Locale.ROOT) : failure,
                nowNanos == 0 ? System.nanoTime() : nowNanos);
        if (outcome == AttemptOutcome.RESPONDED) {
            target.health().succeeded();
        } else {
            target.health().failed(nowNanos);
        }
        selector.report(runtime.loopState(selector, loop.index()), target.index(), outcome, nowNanos);
    }

    /** The client left before the upstream had its say: the attempt ends without a verdict on the upstream. */
    public void abandoned(UpstreamTarget target) {
        watches[target.index()].reported(-1, null, 0);
    }
}
