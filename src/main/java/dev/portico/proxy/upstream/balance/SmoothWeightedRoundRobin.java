package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * nginx's smooth weighted round robin, expanded once at compile time into a schedule (weights 3 and 1 give a, a, b,
 * a) so that picking is an array walk with a cursor kept per event loop. An upstream passive health took out, or one
 * this request already tried, is skipped; as in nginx, a lone upstream is never taken out: there is nothing to fail
 * over to. An upstream in its slow start keeps its places in the schedule but takes each only with the probability of
 * its share of weight, which scales its traffic by that share.
 */
public final class SmoothWeightedRoundRobin implements UpstreamSelector<SmoothWeightedRoundRobin.Cursor> {

    /** A loop's position in the schedule. */
    public static final class Cursor {
        private int position;
    }

    private final int[] schedule;
    private final Object compatibility;

    /**
     * @param origins each upstream's origin, in order (what the schedule's positions stand for)
     * @param weights each upstream's weight, in the same order
     */
    public SmoothWeightedRoundRobin(List<String> origins, int[] weights) {
        this.schedule = schedule(weights);
        this.compatibility = compatibility("smooth-weighted-round-robin", origins, weights);
    }

    /**
     * A selector's {@link UpstreamSelector#compatibility()}: its policy, and the upstreams and weights its loop states
     * index into.
     */
    static Object compatibility(String policy, List<String> upstreams, int[] weights) {
        return List.of(policy, List.copyOf(upstreams), Arrays.stream(weights).boxed().toList());
    }

    @Override
    public Cursor newLoopState() {
        return new Cursor();
    }

    @Override
    public int pick(Cursor cursor, UpstreamAvailability upstreams, Exchange request, long tried, long nowNanos) {
        return pick(cursor, upstreams, tried, nowNanos);
    }

    /** The next upstream in the schedule that is available and not excluded by {@code tried}, or -1. */
    int pick(Cursor cursor, UpstreamAvailability upstreams, long tried, long nowNanos) {
        int passedOver = -1;
        for (int i = 0; i < schedule.length; i++) {
            int position = (cursor.position + i) % schedule.length;
            int index = schedule[position];
            if ((tried & (1L << index)) == 0 && upstreams.available(index, nowNanos)) {
                double share = upstreams.weightShare(index, nowNanos);
                if (share < 1.0 && ThreadLocalRandom.current().nextDouble() >= share) {
                    // Ramping up: this turn goes to the next one, unless there is none.
                    passedOver = passedOver < 0 ? position : passedOver;
                    continue;
                }
                cursor.position = position + 1;
                return index;
            }
        }
        if (passedOver >= 0) {
            cursor.position = passedOver + 1;
            return schedule[passedOver];
        }
        return -1;
    }

    @Override
    public Object compatibility() {
        return compatibility;
    }

    static int[] schedule(int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int[] schedule = new int[total];
        int[] current = new int[weights.length];
        for (int step = 0; step < total; step++) {
            int best = 0;
            for (int i = 0; i < current.length; i++) {
                current[i] += weights[i];
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
