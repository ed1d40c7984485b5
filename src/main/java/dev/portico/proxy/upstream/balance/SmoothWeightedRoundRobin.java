package dev.portico.proxy.upstream.balance;

import java.util.Arrays;
import java.util.List;

/**
 * nginx's smooth weighted round robin, expanded once at compile time into a schedule (weights 3 and 1 give a, a, b,
 * a) so that picking is an array walk with a cursor kept per event loop. An upstream passive health took out, or one
 * this request already tried, is skipped; as in nginx, a lone upstream is never taken out: there is nothing to fail
 * over to.
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
        this.compatibility = List.of("smooth-weighted-round-robin", List.copyOf(origins), Arrays.stream(weights).boxed().toList());
    }

    @Override
    public Cursor newLoopState() {
        return new Cursor();
    }

    @Override
    public int pick(Cursor cursor, UpstreamAvailability upstreams, long tried, long nowNanos) {
        boolean alone = upstreams.size() == 1;
        for (int i = 0; i < schedule.length; i++) {
            int position = (cursor.position + i) % schedule.length;
            int index = schedule[position];
            if ((tried & (1L << index)) == 0 && (alone || upstreams.available(index, nowNanos))) {
                cursor.position = position + 1;
                return index;
            }
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
