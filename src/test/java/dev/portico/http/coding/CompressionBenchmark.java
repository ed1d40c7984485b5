package dev.portico.http.coding;

import dev.portico.http.negotiation.AcceptEncoding.Coding;
import dev.portico.vhost.CompressionSpec;
import io.vertx.core.buffer.Buffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What compressing one response body costs per codec and level, as the data plane does it (a fresh encoder per
 * response, the body in 8 KiB pieces as upstream bodies arrive), on real text: this project's own OpenAPI document,
 * README and Java sources. Prints the compressed size of each case once, so cost and ratio can be weighed together.
 * Run with {@code bash loadtests/jmh.sh Compression}; the defaults in {@link CompressionSpec} come from it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@State(Scope.Thread)
public class CompressionBenchmark {

    @Param({"gzip-1", "gzip-5", "gzip-6", "br-1", "br-4", "br-5", "br-6", "zstd-1", "zstd-3", "zstd-6"})
    public String codec;

    @Param({"1024", "102400"})
    public int size;

    private Coding coding;
    private CompressionPolicy policy;
    private Buffer[] pieces;
    private long compressedBytes;

    @Setup(Level.Trial)
    public void setUp() {
        String[] parts = codec.split("-");
        coding = Coding.valueOf(parts[0].toUpperCase(Locale.ROOT));
        int level = Integer.parseInt(parts[1]);
        policy = new CompressionPolicy(new CompressionSpec(true, CompressionSpec.DEFAULT_ENCODINGS,
                CompressionSpec.DEFAULT_TYPES, 0, level, level, level));
        byte[] body = corpus(size);
        int count = (size + 8191) / 8192;
        pieces = new Buffer[count];
        for (int i = 0; i < count; i++) {
            int from = i * 8192;
            pieces[i] = Buffer.buffer().appendBytes(body, from, Math.min(8192, size - from));
        }
    }

    @TearDown(Level.Trial)
    public void report() {
        System.out.printf("%n%s %d bytes -> %d bytes (%.1f%%)%n", codec, size, compressedBytes,
                100.0 * compressedBytes / size);
    }

    @Benchmark
    public long compressOneBody() {
        BodyEncoder encoder = policy.encoder(coding, size);
        long out = 0;
        for (Buffer piece : pieces) {
            out += encoder.encode(piece).length();
        }
        out += encoder.finish().length();
        compressedBytes = out;
        return out;
    }

    /** The first {@code size} bytes of the project's own text files, in a fixed order. */
    static byte[] corpus(int size) {
        try {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            all.write(Files.readAllBytes(Path.of("openapi/openapi.yaml")));
            all.write(Files.readAllBytes(Path.of("README.md")));
            try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
                List<Path> files = sources.filter(p -> p.toString().endsWith(".java")).sorted().toList();
                for (Path file : files) {
                    if (all.size() >= size) {
                        break;
                    }
                    all.write(Files.readAllBytes(file));
                }
            }
            byte[] bytes = all.toByteArray();
            if (bytes.length < size) {
                throw new IllegalStateException("corpus too small: " + bytes.length);
            }
            return java.util.Arrays.copyOf(bytes, size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
