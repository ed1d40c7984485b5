package dev.portico.telemetry.accesslog;

import dev.portico.proxy.core.ClientConnection;
import dev.portico.proxy.core.ClientTls;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.routes.RouteTable;
import dev.portico.telemetry.Drops;
import dev.portico.telemetry.accesslog.offloop.AccessLogWriter;
import dev.portico.telemetry.accesslog.offloop.DropWarning;
import dev.portico.telemetry.accesslog.offloop.StandardOutput;
import dev.portico.telemetry.accesslog.offloop.Writability;
import dev.portico.vhost.AccessLogSpec;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * The access log: one line per finished request, as JSON or nginx {@code combined}
 * ({@code portico.access-log.*}), subject to each vhost's {@code accessLog} settings.
 *
 * <p>On the event loop a request costs one format into the loop's reusable {@link LineBuffer} and one copy into the
 * loop's current batch; no locks, no allocation. Full batches, and every loop's batch on each
 * {@link #flush} (five times a second and at shutdown), go to the {@link AccessLogWriter} thread. When it cannot
 * keep up or the disk fails, lines are dropped and counted in the application's {@link Drops} ({@code ACCESS_LOG_LINES}); requests never wait.
 *
 * <p>The destination is a file, or the process's standard output ({@code portico.access-log.file=stdout}, what the
 * container images use), written by the same background thread. Whether it takes lines is in {@link #status()}.
 */
@Singleton
public class AccessLog implements RequestObserver {

    private static final Logger LOG = Logger.getLogger(AccessLog.class);
    private static final int MIN_BATCH = 4 * 1024;
    private static final int MAX_BATCH = 16 * 1024 * 1024;
    private static final long STOP_TIMEOUT_MILLIS = 10_000;

    /** What one event loop owns; only that loop touches it. */
    private static final class LoopLog {
        final AccessRecord record = new AccessRecord();
        final LineBuffer line = new LineBuffer(1024);
        final LogClock clock = new LogClock();
        final LoopBatcher batcher;

        LoopLog(LoopBatcher batcher) {
            this.batcher = batcher;
        }
    }

    /** The value of {@code portico.access-log.file} that sends lines to standard output. */
    public static final String STDOUT = "stdout";

    /**
     * What health, metrics and {@code /api/v1/status} report.
     *
     * @param enabled whether the access log is on
     * @param destination the absolute file path, {@code stdout}, or null when off
     * @param opened whether the destination has been opened since start (readiness waits for it)
     * @param writable whether it takes lines: opened and the last write, if any, succeeded
     * @param lastError the last failure to open or write, kept after recovery; null if none
     * @param lastErrorAt when that was
     * @param droppedLines lines dropped since start, for any reason (also a full queue)
     */
    public record Status(boolean enabled, String destination, boolean opened, boolean writable, String lastError,
                         Instant lastErrorAt, long droppedLines) {
    }

    private final Optional<Path> file;
    private final boolean stdout;
    private final WritableByteChannel standardOutput;
    private final AccessLogSettings config;
    private final LineFormatter formatter;
    private final boolean unmatched;
    private final Drops dropCounts;
    private final DropWarning drops;
    private final Writability writability = new Writability();
    private volatile AccessLogWriter writer;
    private volatile boolean stopped;
    // Written before the event loops start (start() runs before they are deployed), then only read.
    private LoopLog[] loops;

    @Inject
    public AccessLog(AccessLogSettings config, Drops drops) {
        this(config, drops, StandardOutput.channel());
    }

    /** For tests: {@code standardOutput} stands in for the process's standard output. */
    AccessLog(AccessLogSettings config, Drops drops, WritableByteChannel standardOutput) {
        this.config = config;
        this.dropCounts = drops;
        this.drops = new DropWarning(drops);
        String setting = config.file().map(String::trim).orElse("");
        this.stdout = setting.equalsIgnoreCase(STDOUT);
        this.standardOutput = standardOutput;
        this.file = setting.isEmpty() || setting.equalsIgnoreCase("off") || stdout ? Optional.empty()
                : Optional.of(Path.of(setting).toAbsolutePath());
        this.formatter = LineFormatter.of(config.format());
        this.unmatched = config.unmatched();
    }

    /** The file written to; empty when the access log is off or goes to standard output. */
    public Optional<Path> file() {
        return file;
    }

    /** Whether lines go to standard output. */
    public boolean toStdout() {
        return stdout;
    }

    /** The state of the destination and the drops; cheap, from memory. */
    public Status status() {
        boolean enabled = stdout || file.isPresent();
        String destination = stdout ? STDOUT : file.map(Path::toString).orElse(null);
        return new Status(enabled, destination, writability.everOpened(), writability.writable(),
                writability.lastError(), writability.lastErrorAt(), dropCounts.count(Drops.Kind.ACCESS_LOG_LINES));
    }

    @Override
    public void start(int eventLoops) {
        if (file.isEmpty() && !stdout) {
            LOG.info("Access log: off");
            return;
        }
        int batchSize = (int) Math.max(MIN_BATCH, Math.min(MAX_BATCH, config.batchSize().asLongValue()));
        LoopLog[] created = new LoopLog[eventLoops];
        for (int i = 0; i < eventLoops; i++) {
            created[i] = new LoopLog(new LoopBatcher(i, batchSize, () -> writer, drops));
        }
        loops = created;
        writer = stdout ? newWriter(AccessLogWriter.Settings.stream(standardOutput, config.queueBatches()))
                : newWriter(file.get());
        writer.start();
        Object destination = stdout ? "standard output" : file.get();
        if (writability.everOpened()) {
            LOG.infof("Access log: %s (%s)", destination, config.format().name().toLowerCase(Locale.ROOT));
        } else {
            LOG.errorf("Access log: %s cannot be opened; readiness (/q/health/ready) stays DOWN until it can be, "
                    + "see the access-log check there and in /api/v1/status", destination);
        }
    }

    @Override
    public void completed(Exchange exchange) {
        LoopLog[] all = loops;
        if (all == null) {
            return;
        }
        CompiledVhost vhost = servedBy(exchange);
        AccessLogSpec spec = vhost == null ? null : vhost.spec().accessLog();
        if (vhost == null ? !unmatched : !spec.enabled()) {
            return;
        }
        if (stopped) {
            drops.dropped(1, "a request finished after the access log stopped", null);
            return;
        }
        LoopLog loop = all[exchange.loop().index()];
        fill(loop.record, exchange, vhost, spec != null && spec.redactQuery());
        write(loop);
    }

    @Override
    public void flush(int loopIndex) {
        LoopLog[] all = loops;
        if (all != null) {
            all[loopIndex].batcher.flush();
        }
    }

    @Override
    public void stop() {
        if (loops == null || stopped) {
            return;
        }
        stopped = true;
        writer.stop(STOP_TIMEOUT_MILLIS);
    }

    /** The record loop {@code loopIndex} formats next; tests fill it and call {@link #write(int)}. */
    AccessRecord record(int loopIndex) {
        return loops[loopIndex].record;
    }

    /** Formats loop {@code loopIndex}'s record and adds the line to its batch; on that loop only. */
    void write(int loopIndex) {
        write(loops[loopIndex]);
    }

    /**
     * Sends further batches to {@code target} instead, and stops the previous writer once it has written what it
     * had. For tests that need a failing disk under a running proxy.
     */
    void redirect(Path target) {
        AccessLogWriter next = newWriter(target);
        next.start();
        AccessLogWriter previous = writer;
        writer = next;
        previous.stop(STOP_TIMEOUT_MILLIS);
    }

    private AccessLogWriter newWriter(Path target) {
        return newWriter(new AccessLogWriter.Settings(target, config.maxFileSize().asLongValue(),
                Math.max(0, config.maxFiles()), config.queueBatches()));
    }

    private AccessLogWriter newWriter(AccessLogWriter.Settings settings) {
        return new AccessLogWriter(settings, batch -> loops[batch.owner].batcher.recycle(batch), drops, writability);
    }

    private void write(LoopLog loop) {
        LineBuffer line = loop.line;
        line.reset();
        formatter.format(loop.record, loop.clock, line);
        loop.batcher.append(line.bytes(), line.length());
    }

    /** The vhost a request belongs to: the one it was routed to, or the disabled one that refused it. */
    private static CompiledVhost servedBy(Exchange exchange) {
        CompiledVhost vhost = exchange.vhost();
        return vhost != null ? vhost : exchange.refusedBy();
    }

    private static void fill(AccessRecord r, Exchange exchange, CompiledVhost vhost, boolean redactQuery) {
        HttpServerRequest request = exchange.request();
        long durationNanos = exchange.durationNanos();
        r.timeMillis = System.currentTimeMillis() - durationNanos / 1_000_000;
        r.requestId = exchange.requestId();
        r.vhost = vhost == null ? null : vhost.name();
        r.client = exchange.clientAddress();
        HttpMethod method = request.method();
        r.method = method == null ? null : method.name();
        RequestTarget target = exchange.target();
        r.target = target != null ? target.pathAndQuery() : request.uri();
        r.redactQuery = redactQuery;
        r.protocol = protocol(request.version());
        r.status = exchange.status();
        r.bytesIn = exchange.bytesIn();
        r.bytesOut = exchange.bytesOut();
        r.durationNanos = durationNanos;
        r.upstreamNanos = exchange.upstream().nanos();
        r.upstream = exchange.upstream().address();
        LocalReason reason = exchange.reason();
        // A tunnel's line says why it closed (client_closed, idle_timeout...), with its bytes and lifetime.
        r.reason = reason != null ? reason.code()
                : exchange.tunnelClose() != null ? exchange.tunnelClose().code() : null;
        r.userAgent = request.getHeader(HttpHeaders.USER_AGENT);
        r.referrer = request.getHeader(HttpHeaders.REFERER);
        ClientConnection connection = exchange.connection();
        ClientTls tls = connection == null ? null : connection.tls();
        r.scheme = tls != null || request.isSSL() ? "https" : "http";
        r.tls = tls == null ? null : tls.description();
        r.sni = tls == null ? null : tls.serverName();
        r.attempts = exchange.upstream().attempts();
        r.route = RouteTable.takenBy(exchange);
    }

    private static String protocol(HttpVersion version) {
        if (version == null) {
            return null;
        }
        return switch (version) {
            case HTTP_1_0 -> "HTTP/1.0";
            case HTTP_1_1 -> "HTTP/1.1";
            case HTTP_2 -> "HTTP/2.0";
        };
    }
}
