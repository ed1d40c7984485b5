package dev.portico.telemetry.stats;

import dev.portico.proxy.core.counters.LoopSlot;
import dev.portico.proxy.core.counters.VhostStats;
import dev.portico.telemetry.stats.offloop.StatsLedger;
import dev.portico.proxy.core.outcome.LocalReason;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What live statistics cost: the event loop's whole per-request share ({@link LoopSlot#started()} plus
 * {@link LoopSlot#completed}), and the aggregator's once-a-second merge of one vhost. Run with
 * {@code bash loadtests/jmh.sh}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class LiveStatsBenchmark {

    private final VhostStats stats = new VhostStats("bench", 2);
    private final StatsLedger ledger = new StatsLedger();
    private final LoopSlot slot = stats.slot(0);
    private final Histogram all = VhostStats.newHistogram();
    private final Histogram allUpstream = VhostStats.newHistogram();
    private long n;

    @Benchmark
    public void accountAProxiedRequest() {
        long i = n++;
        slot.started();
        slot.completed(200, null, 0, 1024, 180_000 + (i & 0xffff), 150_000 + (i & 0xfff), null);
    }

    @Benchmark
    public void accountALocalReply() {
        long i = n++;
        slot.completed(404, LocalReason.VHOST_NOT_FOUND, 0, 190, 20_000 + (i & 0xfff), -1, null);
    }

    @Benchmark
    public Object aggregateOneVhostInterval() {
        return ledger.closeInterval(stats, all, allUpstream);
    }
}
