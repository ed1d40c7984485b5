package dev.portico.telemetry.analytics;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.http.TrustedProxies;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.RequestTarget;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Traffic analytics' entry from the data plane. On the event loop it only copies a few fields of each routed
 * request into a {@link Sample} and offers it to the loop's own bounded queue (dropped and counted when full). One
 * analytics thread drains every queue into per-vhost buckets ({@link TrafficRollup}); closed buckets go to the
 * writer thread ({@link TrafficWriter}) and from there to PostgreSQL. Requests no vhost served are not counted: the
 * analytics are read per vhost.
 */
@Singleton
public class AnalyticsObserver implements RequestObserver {

    private static final Logger LOG = Logger.getLogger(AnalyticsObserver.class);
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final AnalyticsSettings config;
    private final TrustedProxies trusted;
    private final TrafficWriter.Sink store;
    // Set once in start(), before the event loops serve; read on every completed request.
    private volatile SampleQueues queues;
    private TrafficRollup rollup;
    private TrafficWriter writer;
    private ScheduledExecutorService drainer;

    @Inject
    public AnalyticsObserver(AnalyticsSettings config, DataPlaneSettings dataplane, TrafficStore store) {
        this(config, TrustedProxies.parse(dataplane.trustedProxies().orElse(List.of())),
                store::save);
    }

    AnalyticsObserver(AnalyticsSettings config, TrustedProxies trusted, TrafficWriter.Sink store) {
        this.config = config;
        this.trusted = trusted;
        this.store = store;
    }

    @Override
    public void start(int eventLoops) {
        if (!config.enabled()) {
            LOG.info("Traffic analytics are disabled (portico.analytics.enabled=false)");
            return;
        }
        long drainMillis = Math.max(10, config.drainInterval().toMillis());
        long bucketMillis = Math.max(1000, config.bucket().toMillis());
        int top = Math.max(1, config.top());
        SampleQueues loops = new SampleQueues(eventLoops, Math.max(2, config.queueSize()));
        rollup = new TrafficRollup(loops, new DimensionKeys(trusted), new TrafficRollup.Settings(bucketMillis,
                drainMillis, powerOfTwoAtLeast(Math.max(8, config.sketchSize())), top));
        writer = new TrafficWriter(store, new PendingMinutes(config.maxPendingBuckets(), top));
        writer.start(Duration.ofMillis(bucketMillis));
        drainer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "portico-analytics");
            thread.setDaemon(true);
            return thread;
        });
        drainer.scheduleWithFixedDelay(this::drain, drainMillis, drainMillis, TimeUnit.MILLISECONDS);
        queues = loops;
        LOG.debugf("Traffic analytics: %d-sample queue per event loop, %d ms buckets", loops.capacity(),
                bucketMillis);
    }

    @Override
    public void completed(Exchange exchange) {
        SampleQueues loops = queues;
        CompiledVhost vhost = exchange.vhost();
        if (loops == null || vhost == null) {
            return;
        }
        HttpServerRequest request = exchange.request();
        RequestTarget target = exchange.target();
        loops.offer(exchange.loop().index(), new Sample(vhost.spec().id(), System.currentTimeMillis(),
                exchange.status(), exchange.bytesIn(), exchange.bytesOut(),
                target == null ? request.uri() : target.pathAndQuery(), exchange.clientAddress(),
                exchange.peerTrusted() ? request.getHeader(X_FORWARDED_FOR) : null,
                request.getHeader(HttpHeaders.USER_AGENT), request.getHeader(HttpHeaders.REFERER)));
    }

    /** What {@link #completed} does after copying the sample; only event loop {@code loop} may call this. */
    void offer(int loop, Sample sample) {
        SampleQueues loops = queues;
        if (loops != null) {
            loops.offer(loop, sample);
        }
    }

    @Override
    public void stop() {
        if (drainer == null) {
            return;
        }
        drainer.shutdown();
        try {
            if (drainer.awaitTermination(5, TimeUnit.SECONDS)) {
                // The drainer has stopped, so this thread owns the rollup now: the partial bucket goes out too.
                writer.submit(rollup.drainAll());
            } else {
                LOG.warn("Traffic analytics: the last drain did not finish in time; the open buckets are lost");
                drainer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drainer.shutdownNow();
        }
        writer.stop(STOP_WAIT);
    }

    /** ItemsSketch sizes its map in powers of two. */
    static int powerOfTwoAtLeast(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    private void drain() {
        try {
            writer.submit(rollup.drain(System.currentTimeMillis()));
        } catch (RuntimeException e) {
            LOG.error("Traffic analytics: rolling up samples failed", e);
        }
    }
}
