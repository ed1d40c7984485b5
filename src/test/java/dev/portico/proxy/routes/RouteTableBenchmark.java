package dev.portico.proxy.routes;

import dev.portico.vhost.RouteSpec;
import io.vertx.core.MultiMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of choosing a route per request: normalising the path and walking the table, with 100 prefix routes
 * ({@code /service0/*} ... {@code /service99/*}), for a path the last route takes and one no route takes (the
 * vhost serves it). {@code bash loadtests/jmh.sh RouteTable}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class RouteTableBenchmark {

    @Param({"/service99/api/v1/items/12345?sort=desc", "/static/app.js"})
    public String target;

    private RouteTable table;
    private final MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Host", "bench.example.com");

    @Setup
    public void setUp() {
        List<RouteSpec.Match> matches = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            matches.add(RouteTableTest.path("/service" + i + "/*"));
        }
        table = RouteTableTest.table(matches);
    }

    @Benchmark
    public MatchedRoute hundredPrefixRoutes() throws RequestPath.Invalid {
        return table.match("GET", headers, target);
    }
}
