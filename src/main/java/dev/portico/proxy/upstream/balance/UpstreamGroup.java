package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.LoopState;

import java.util.List;

/**
 * A vhost's upstreams and the order to use them in: nginx's smooth weighted round robin, expanded once at compile
 * time into a schedule (weights 3 and 1 give a, a, b, a) so that picking is an array walk with a cursor kept per
 * event loop, without atomics.
 */
public final class UpstreamGroup {

    /** A group may have at most this many upstreams (one bit each in the per-request "tried" mask). */
    public static final int MAX_UPSTREAMS = 64;

    private final UpstreamTarget[] targets;
    private final int[] schedule;
    private final int slot;

    /**
     * @param slot this group's index among the snapshot's groups, for its per-event-loop cursor
     */
    public UpstreamGroup(List<UpstreamTarget> targets, int slot) {
        if (targets.isEmpty() || targets.size() > MAX_UPSTREAMS) {
            throw new IllegalArgumentException("a group has 1 to " + MAX_UPSTREAMS + " upstreams");
        }
        this.targets = targets.toArray(new UpstreamTarget[0]);
        this.schedule = smoothSchedule(targets);
        this.slot = slot;
    }

    public int size() {
        return targets.length;
    }

    public UpstreamTarget target(int index) {
        return targets[index];
    }

    /**
     * The next upstream in the schedule that is available and not yet tried for this request, or null.
     *
     * @param tried bit i set when target i was already tried
     */
    public UpstreamTarget pick(LoopState loop, long tried, long nowNanos) {
        int cursor = loop.cursor(slot);
        for (int i = 0; i < schedule.length; i++) {
            int position = (cursor + i) % schedule.length;
            UpstreamTarget target = targets[schedule[position]];
            // As in nginx, a lone upstream is never taken out: there is nothing to fail over to.
            if ((tried & (1L << target.index())) == 0 && (targets.length == 1 || target.health().available(nowNanos))) {
                loop.cursor(slot, position + 1);
                return target;
            }
        }
        return null;
    }

    static int[] smoothSchedule(List<UpstreamTarget> targets) {
        int total = 0;
        for (UpstreamTarget t : targets) {
            total += t.spec().weight();
        }
        int[] schedule = new int[total];
        int[] current = new int[targets.size()];
        for (int step = 0; step < total; step++) {
            int best = 0;
            for (int i = 0; i < current.length; i++) {
                current[i] += targets.get(i).spec().weight();
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            schedule[step] = best;
        }
        return schedule;
    }
}
