package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;

import java.util.List;

/**
 * nginx's {@code least_conn}, weighted: the upstream with the fewest requests in flight on this event loop for its
 * weight (in flight / weight, the weight scaled down during a slow start); ties go by the smooth weighted round robin,
 * so idle upstreams share requests by weight. Counts are per loop: each loop balances its own requests, and with
 * several loops the global choice is close to, not exactly, the least loaded.
 */
public final class LeastConnections implements UpstreamSelector<LeastConnections.Load> {

    /** A loop's requests in flight per upstream, and its round-robin cursor for ties. */
    public static final class Load {
        final int[] inFlight;
        final SmoothWeightedRoundRobin.Cursor ties = new SmoothWeightedRoundRobin.Cursor();

        Load(int upstreams) {
            inFlight = new int[upstreams];
        }

        /** Requests in flight on upstream {@code index} from this loop. */
        public int inFlight(int index) {
            return inFlight[index];
        }
    }

    private final int[] weights;
    private final SmoothWeightedRoundRobin ties;
    private final Object compatibility;

    public LeastConnections(List<String> origins, int[] weights) {
        this.weights = weights.clone();
        this.ties = new SmoothWeightedRoundRobin(origins, weights);
        this.compatibility = SmoothWeightedRoundRobin.compatibility("least-conn", origins, weights);
    }

    @Override
    public Load newLoopState() {
        return new Load(weights.length);
    }

    @Override
    public int pick(Load load, UpstreamAvailability upstreams, Exchange request, long tried, long nowNanos) {
        double least = Double.MAX_VALUE;
        long notLeast = tried;
        for (int i = 0; i < weights.length; i++) {
            if ((tried & (1L << i)) != 0 || !upstreams.available(i, nowNanos)) {
                continue;
            }
            double score = load.inFlight[i] / (weights[i] * upstreams.weightShare(i, nowNanos));
            if (score < least) {
                // Everything seen so far is now worse than this one.
                for (int j = 0; j < i; j++) {
                    notLeast |= 1L << j;
                }
                least = score;
            } else if (score > least) {
                notLeast |= 1L << i;
            }
        }
        if (least == Double.MAX_VALUE) {
            return -1;
        }
        int index = ties.pick(load.ties, upstreams, notLeast, nowNanos);
        if (index >= 0) {
            load.inFlight[index]++;
        }
        return index;
    }

    @Override
    public void finished(Load load, int index, long headNanos, long nowNanos) {
        if (load.inFlight[index] > 0) {
            load.inFlight[index]--;
        }
    }

    @Override
    public Object compatibility() {
        return compatibility;
    }
}
