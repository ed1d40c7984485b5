package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The power of two random choices (Envoy's default least-request balancer, Finagle's P2C): two distinct upstreams drawn
 * at random by weight (scaled down during a slow start), the less loaded one taken. Loaded means, by default, more
 * requests in flight on this loop for the weight; with {@code byLatency}, Finagle's peak EWMA: the response-head latency
 * averaged with more weight on recent samples, jumping to a new peak at once, times (in flight + 1). An upstream not
 * chosen for a while sees its average decay, so a slow one gets probed again. All per loop, with no coordination.
 */
public final class RandomTwoChoices implements UpstreamSelector<RandomTwoChoices.Load> {

    /** How fast the latency average forgets: Finagle's default decay time. */
    static final long DECAY_NANOS = 10_000_000_000L;

    /** A loop's requests in flight and latency averages per upstream. */
    public static final class Load {
        final int[] inFlight;
        final double[] latencyNanos;
        final long[] measuredAtNanos;
        final int[] candidates;
        final double[] cumulative;

        Load(int upstreams) {
            inFlight = new int[upstreams];
            latencyNanos = new double[upstreams];
            measuredAtNanos = new long[upstreams];
            candidates = new int[upstreams];
            cumulative = new double[upstreams];
        }

        /** The latency average of upstream {@code index} as of {@code nowNanos}: decayed towards 0 since measured. */
        double latency(int index, long nowNanos) {
            double average = latencyNanos[index];
            if (average == 0) {
                return 0;
            }
            long age = Math.max(0, nowNanos - measuredAtNanos[index]);
            return average * Math.exp(-(double) age / DECAY_NANOS);
        }

        void measured(int index, long headNanos, long nowNanos) {
            long age = Math.max(0, nowNanos - measuredAtNanos[index]);
            double kept = Math.exp(-(double) age / DECAY_NANOS);
            double decayed = latencyNanos[index] * kept;
            // Peak EWMA: a slower sample counts at once, a faster one is blended in by the time since the last.
            latencyNanos[index] = headNanos > decayed ? headNanos : decayed + headNanos * (1 - kept);
            measuredAtNanos[index] = nowNanos;
        }
    }

    private final int[] weights;
    private final boolean byLatency;
    private final Object compatibility;

    public RandomTwoChoices(List<String> origins, int[] weights, boolean byLatency) {
        this.weights = weights.clone();
        this.byLatency = byLatency;
        this.compatibility = SmoothWeightedRoundRobin.compatibility(
                byLatency ? "random-two-latency" : "random-two", origins, weights);
    }

    @Override
    public Load newLoopState() {
        return new Load(weights.length);
    }

    @Override
    public int pick(Load load, UpstreamAvailability upstreams, Exchange request, long tried, long nowNanos) {
        int count = 0;
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            if ((tried & (1L << i)) == 0 && upstreams.available(i, nowNanos)) {
                total += weights[i] * upstreams.weightShare(i, nowNanos);
                load.candidates[count] = i;
                load.cumulative[count] = total;
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        int index;
        if (count == 1) {
            index = load.candidates[0];
        } else {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int first = draw(load, count, random.nextDouble(total), -1);
            double firstWeight = load.cumulative[first] - (first == 0 ? 0 : load.cumulative[first - 1]);
            // The second is drawn from the others: the same draw over the total less the first one's weight.
            double point = random.nextDouble(total - firstWeight);
            int second = draw(load, count, point >= (first == 0 ? 0 : load.cumulative[first - 1])
                    ? point + firstWeight : point, first);
            int a = load.candidates[first];
            int b = load.candidates[second];
            index = cost(load, a, upstreams, nowNanos) <= cost(load, b, upstreams, nowNanos) ? a : b;
        }
        load.inFlight[index]++;
        return index;
    }

    /** The candidate whose cumulative weight range holds {@code point}, never {@code not}. */
    private static int draw(Load load, int count, double point, int not) {
        for (int c = 0; c < count; c++) {
            if (point < load.cumulative[c] && c != not) {
                return c;
            }
        }
        return not == count - 1 ? count - 2 : count - 1;
    }

    private double cost(Load load, int index, UpstreamAvailability upstreams, long nowNanos) {
        double weight = weights[index] * upstreams.weightShare(index, nowNanos);
        if (byLatency) {
            return load.latency(index, nowNanos) * (load.inFlight[index] + 1) / weight;
        }
        return load.inFlight[index] / weight;
    }

    @Override
    public void finished(Load load, int index, long headNanos, long nowNanos) {
        if (load.inFlight[index] > 0) {
            load.inFlight[index]--;
        }
        if (headNanos >= 0) {
            load.measured(index, headNanos, nowNanos);
        }
    }

    @Override
    public Object compatibility() {
        return compatibility;
    }
}
