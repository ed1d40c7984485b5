package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.LoopState;
import io.vertx.core.MultiMap;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A vhost's upstreams, the policy that picks among them ({@link UpstreamSelector}, by the vhost's {@code balance}) and
 * the vhost's per-loop selector states, which outlive snapshots while the policy's compatibility holds
 * ({@link UpstreamRuntime}). Backups are offered to the policy only when no primary may take the attempt (nginx's and
 * HAProxy's {@code backup}); a slow start scales the weight of an upstream that came back. Immutable and shared by
 * every event loop.
 */
public final class UpstreamGroup implements UpstreamAvailability {

    /** A group may have at most this many upstreams (one bit each in the per-request "tried" mask). */
    public static final int MAX_UPSTREAMS = 64;

    private final UpstreamTarget[] targets;
    private final UpstreamSelector<Object> selector;
    private final UpstreamRuntime runtime;
    private final UpstreamWatch[] watches;
    /** Bit i set when upstream i is a backup. */
    private final long backups;
    private final long primaries;
    /** Null when off. */
    private final SlowStart slowStart;

    /**
     * @param runtime the vhost's selector states: claim it with {@code selector.compatibility()}
     */
    public UpstreamGroup(List<UpstreamTarget> targets, UpstreamSelector<?> selector, UpstreamRuntime runtime) {
        this(targets, selector, runtime, null, null);
    }

    /**
     * @param watches each target's active check and outlier detection, in the same order; null for none
     * @param slowStart how an upstream that came back ramps up; null for no slow start
     */
    @SuppressWarnings("unchecked")
    public UpstreamGroup(List<UpstreamTarget> targets, UpstreamSelector<?> selector, UpstreamRuntime runtime,
                         UpstreamWatch[] watches, SlowStart slowStart) {
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
        this.slowStart = slowStart;
        long backupMask = 0;
        for (int i = 0; i < this.targets.length; i++) {
            if (this.targets[i].spec().backup()) {
                backupMask |= 1L << i;
            }
        }
        this.backups = backupMask;
        this.primaries = backupMask == 0 ? 0 : ~backupMask;
    }

    @Override
    public int size() {
        return targets.length;
    }

    /**
     * Passive health, the active check and outlier detection all let upstream {@code index} take requests. A vhost's
     * lone upstream is used whatever passive health says (there is nothing to fail over to, and taking it out would
     * turn one failure into seconds of 502s), but one whose active check has not passed gets nothing: that is what the
     * check is for. Every policy asks this, so the rule holds for all of them.
     */
    @Override
    public boolean available(int index, long nowNanos) {
        return (targets.length == 1 || targets[index].health().available(nowNanos))
                && watches[index].available(nowNanos);
    }

    @Override
    public double weightShare(int index, long nowNanos) {
        if (slowStart == null) {
            return 1.0;
        }
        // Back from whichever took it out: the origin's passive health, an ejection, or a failing active check.
        return slowStart.share(UpstreamHealth.later(targets[index].health().cameBackAtNanos(),
                watches[index].cameBackAtNanos()), nowNanos);
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
        return pick(loop, null, tried, nowNanos);
    }

    /** As {@link #pick(LoopState, long, long)}, for a client's request, which a hash or a cookie may be read from. */
    public UpstreamTarget pick(Exchange request, long tried, long nowNanos) {
        return pick(request.loop(), request, tried, nowNanos);
    }

    private UpstreamTarget pick(LoopState loop, Exchange request, long tried, long nowNanos) {
        Object state = runtime.loopState(selector, loop.index());
        int index = selector.pick(state, this, request, tried | backups, nowNanos);
        if (index < 0 && backups != 0) {
            index = selector.pick(state, this, request, tried | primaries, nowNanos);
        }
        if (index < 0) {
            return null;
        }
        watches[index].attempted();
        return targets[index];
    }

    /**
     * The attempt on {@code target} that {@link #pick} started is over (its response ended, or it failed): call once
     * per pick, on the loop that picked.
     *
     * @param headNanos the time from connecting to the response head, or -1 when none came
     */
    public void finished(LoopState loop, UpstreamTarget target, long headNanos) {
        selector.finished(runtime.loopState(selector, loop.index()), target.index(), headNanos, System.nanoTime());
    }

    /** The response of {@code target} is about to go to the client: the policy may add fields (a sticky cookie). */
    public void responding(Exchange request, UpstreamTarget target, MultiMap responseHeaders) {
        selector.responding(runtime.loopState(selector, request.loop().index()), target.index(), request,
                responseHeaders);
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
        watches[target.index()].reported(loop.index(),
                outcome == AttemptOutcome.RESPONDED ? Math.max(status, 100) : 0,
                failure == null ? outcome.name().toLowerCase(Locale.ROOT) : failure,
                nowNanos == 0 ? System.nanoTime() : nowNanos);
        if (outcome == AttemptOutcome.RESPONDED) {
            target.health().succeeded();
        } else {
            target.health().failed(nowNanos);
        }
        selector.report(runtime.loopState(selector, loop.index()), target.index(), outcome, nowNanos);
    }

    /**
     * The attempt got no connection: the upstream's queue was full or the wait timed out. Portico's limit, not the
     * upstream's failure: neither passive health nor outlier detection hears of it, and the selector only that the
     * attempt is {@link #finished}.
     */
    public void overloaded(UpstreamTarget target) {
        watches[target.index()].overloaded();
    }

    /** The client left before the upstream had its say: the attempt ends without a verdict on the upstream. */
    public void abandoned(UpstreamTarget target) {
        watches[target.index()].reported(-1, -1, null, 0);
    }
}
