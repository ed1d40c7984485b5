package dev.portico.telemetry.analytics.offloop;

import dev.portico.telemetry.Drops;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What the traffic analytics cost the event loop per request: building the sample and offering it to the loop's
 * queue (drained here in the same thread every 1024 offers, as the analytics thread would). Run with
 * {@code bash loadtests/jmh.sh Analytics}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AnalyticsBenchmark {

    private final SampleQueues queues = new SampleQueues(1, 16384, new Drops());
    private final UUID vhost = UUID.randomUUID();
    private long n;

    @Benchmark
    public boolean offerASample() {
        if ((++n & 1023) == 0) {
            queues.drain(sample -> { });
        }
        return queues.offer(0, new Sample(vhost, n, 200, 0, 1024, "/assets/app.js?v=3", "192.0.2.10", null,
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36", "https://example.com/"));
    }
}
