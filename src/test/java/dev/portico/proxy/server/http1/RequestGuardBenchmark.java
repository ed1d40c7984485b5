package dev.portico.proxy.server.http1;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What the strict reader adds to decoding one request head: Vert.x's decoder alone against the guard and Portico's
 * decoder behind it, on an embedded channel (its own overhead is in both). {@code small} is the load test's head,
 * {@code browser} a 410-byte head with a browser's fields. {@code bash loadtests/jmh.sh RequestGuard}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class RequestGuardBenchmark {

    private static final String SMALL = "GET /1k HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
    private static final String BROWSER = "GET /api/v1/items/12345?include=details&sort=desc HTTP/1.1\r\n"
            + "Host: bench.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 "
            + "Safari/537.36\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
            + "Accept-Encoding: gzip, deflate, br\r\n"
            + "Accept-Language: en-US,en;q=0.9\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=abcdef0123456789; theme=dark\r\n\r\n";

    @Param({"small", "browser"})
    public String head;

    private byte[] bytes;
    private EmbeddedChannel vertxDecoder;
    private EmbeddedChannel guarded;
    private final PooledByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;

    @Setup
    public void setUp() {
        bytes = (head.equals("small") ? SMALL : BROWSER).getBytes(StandardCharsets.US_ASCII);
        HttpServerOptions options = new HttpServerOptions().setMaxInitialLineLength(8192).setMaxHeaderSize(32768);
        vertxDecoder = new EmbeddedChannel(new VertxHttpRequestDecoder(options), new Sink());
        GuardedConnections connections = new GuardedConnections(8192, 32768, Duration.ofSeconds(30));
        guarded = new EmbeddedChannel(new RequestGuard(connections), new StrictRequestDecoder(options), new Sink());
    }

    private void feed(EmbeddedChannel channel) {
        ByteBuf buffer = allocator.directBuffer(bytes.length);
        buffer.writeBytes(bytes);
        channel.writeInbound(buffer);
    }

    @Benchmark
    public void vertxDecoderAlone() {
        feed(vertxDecoder);
    }

    @Benchmark
    public void guardAndDecoder() {
        feed(guarded);
    }

    /** Drops every decoded message, as the connection would take it. */
    private static final class Sink extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }
    }
}
