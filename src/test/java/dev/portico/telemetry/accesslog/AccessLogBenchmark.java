package dev.portico.telemetry.accesslog;

import dev.portico.telemetry.accesslog.offloop.Batch;
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
 * The event loop's whole share of the access log for one request: format the line into the loop's buffer and copy
 * it into the current batch (the hand-off of a full batch, once per ~150 lines, is left out). Run with
 * {@code bash loadtests/jmh.sh AccessLog -prof gc} to see that it allocates nothing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class AccessLogBenchmark {

    private final AccessRecord record = Records.proxied();
    private final LineBuffer line = new LineBuffer(1024);
    private final LogClock clock = new LogClock();
    private final Batch batch = new Batch(0, 64 * 1024);
    private long n;

    private int append(LineFormatter formatter) {
        // About a thousand requests a second per loop: the clock renders a new second now and then.
        record.timeMillis = Records.TIME + n++;
        line.reset();
        formatter.format(record, clock, line);
        if (batch.remaining() < line.length()) {
            batch.clear();
        }
        batch.append(line.bytes(), line.length());
        return batch.length;
    }

    @Benchmark
    public int jsonLine() {
        return append(JsonFormatter.INSTANCE);
    }

    @Benchmark
    public int combinedLine() {
        return append(CombinedFormatter.INSTANCE);
    }
}
