package dev.portico.accesslog;

import dev.portico.config.AccessLogSpec;
import dev.portico.config.CompiledVhost;
import dev.portico.config.PorticoConfig;
import dev.portico.dataplane.Exchange;
import dev.portico.dataplane.LocalReason;
import dev.portico.dataplane.RequestObserver;
import dev.portico.dataplane.RequestTarget;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The access log: one line per finished request, as JSON or nginx {@code combined}
 * ({@code portico.access-log.*}), subject to each vhost's {@code accessLog} settings.
 *
 * <p>On the event loop a request costs one format into the loop's reusable {@link LineBuffer} and one copy into the
 * loop's current {@link Batch}; no locks, no allocation. Full batches, and every loop's batch on each
 * {@link #flush} (five times a second and at shutdown), go to the {@link AccessLogWriter} thread. When it cannot
 * keep up or the disk fails, lines are dropped and counted in {@code Drops.ACCESS_LOG_LINES}; requests never wait.
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

    private final Optional<Path> file;
    private final PorticoConfig.AccessLog config;
    private final LineFormatter formatter;
    private final boolean unmatched;
    private final DropWarning drops = new DropWarning();
    private volatile AccessLogWriter writer;
    private volatile boolean stopped;
    // Written before the event loops start (start() runs before they are deployed), then only read.
    private LoopLog[] loops;

    @Inject
    public AccessLog(PorticoConfig config) {
        this(config.accessLog());
    }

    AccessLog(PorticoConfig.AccessLog config) {
        this.config = config;
        this.file = config.file().map(String::trim).filter(f -> !f.isEmpty() && !f.equalsIgnoreCase("off"))
                .map(f -> Path.of(f).toAbsolutePath());
        this.formatter = LineFormatter.of(config.format());
        this.unmatched = config.unmatched();
    }

    /** The file written to, or empty when the access log is off. */
    public Optional<Path> file() {
        return file;
    }

    @Override
    public void start(int eventLoops) {
        if (file.isEmpty()) {
            LOG.info("Access log: off");
            return;
        }
        int batchSize = (int) Math.max(MIN_BATCH, Math.min(MAX_BATCH, config.batchSize().asLongValue()));
        LoopLog[] created = new LoopLog[eventLoops];
        for (int i = 0; i < eventLoops; i++) {
            created[i] = new LoopLog(new LoopBatcher(i, batchSize, () -> writer, drops));
        }
        loops = created;
        writer = newWriter(file.get());
        writer.start();
        LOG.infof("Access log: %s (%s)", file.get(), config.format().name().toLowerCase(java.util.Locale.ROOT));
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
        AccessLogWriter.Settings settings = new AccessLogWriter.Settings(target,
                config.maxFileSize().asLongValue(), Math.max(0, config.maxFiles()), config.queueBatches());
        return new AccessLogWriter(settings, batch -> loops[batch.owner].batcher.recycle(batch), drops);
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
        if (vhost == null && exchange.reason() == LocalReason.VHOST_DISABLED && exchange.target() != null) {
            vhost = exchange.snapshot().route(exchange.target().hostname());
        }
        return vhost;
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
        r.upstreamNanos = exchange.upstreamNanos();
        r.upstream = exchange.upstreamAddress();
        LocalReason reason = exchange.reason();
        r.reason = reason == null ? null : reason.code();
        r.userAgent = request.getHeader(HttpHeaders.USER_AGENT);
        r.referrer = request.getHeader(HttpHeaders.REFERER);
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
