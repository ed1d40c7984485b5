package dev.portico.telemetry.analytics;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.http.TrustedProxies;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.telemetry.Drops;
import dev.portico.telemetry.analytics.offloop.AnalyticsThreads;
import dev.portico.telemetry.analytics.offloop.Sample;
import dev.portico.telemetry.analytics.offloop.SampleQueues;
import dev.portico.telemetry.analytics.offloop.TrafficSink;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;

/**
 * Traffic analytics' entry from the data plane. On the event loop it only copies a few fields of each routed
 * request into a {@link Sample} and offers it to the loop's own bounded queue (dropped and counted when full). The
 * rest runs on analytics' own threads ({@link AnalyticsThreads}): one drains every queue into per-vhost buckets,
 * closed buckets go to the writer and from there to PostgreSQL. Requests no vhost served are not counted: the
 * analytics are read per vhost.
 */
@Singleton
public class AnalyticsObserver implements RequestObserver {

    private static final Logger LOG = Logger.getLogger(AnalyticsObserver.class);
    private static final String X_FORWARDED_FOR = "X-Forwarded-For";
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final AnalyticsSettings config;
    private final TrustedProxies trusted;
    private final TrafficSink store;
    private final Drops drops;
    // Set once in start(), before the event loops serve; read on every completed request.
    private volatile SampleQueues queues;
    private AnalyticsThreads threads;

    @Inject
    public AnalyticsObserver(AnalyticsSettings config, DataPlaneSettings dataplane, TrafficSink store, Drops drops) {
        this(config, TrustedProxies.parse(dataplane.trustedProxies().orElse(List.of())), store, drops);
    }

    AnalyticsObserver(AnalyticsSettings config, TrustedProxies trusted, TrafficSink store, Drops drops) {
        this.config = config;
        this.trusted = trusted;
        this.store = store;
        this.drops = drops;
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
        SampleQueues loops = new SampleQueues(eventLoops, Math.max(2, config.queueSize()), drops);
        threads = AnalyticsThreads.start(loops, trusted, new AnalyticsThreads.Settings(drainMillis, bucketMillis,
                powerOfTwoAtLeast(Math.max(8, config.sketchSize())), top, config.maxPendingBuckets()), store, drops);
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
        if (threads != null) {
            threads.stop(STOP_WAIT);
        }
    }

    /** ItemsSketch sizes its map in powers of two. */
    static int powerOfTwoAtLeast(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }
}
