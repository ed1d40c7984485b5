package dev.portico.telemetry.stats;

import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.core.counters.Latency;
import dev.portico.proxy.core.counters.LoopSlot;
import dev.portico.proxy.core.counters.VhostStats;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.core.outcome.TunnelClose;
import dev.portico.telemetry.Drops;
import dev.portico.telemetry.stats.LiveStats.VhostLiveStats;
import dev.portico.telemetry.stats.offloop.StatsLedger;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.HdrHistogram.Histogram;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Once a second, off the event loops, merges every loop's counters and histograms into a {@link LiveStats} and
 * hands it to the listeners (the SSE stream). The event loops never wait for this: they only ever write their own
 * slots. The interval state ({@link #tick}'s sequence and clock) is confined to the one aggregator thread; the
 * histograms behind the intervals are the {@link StatsLedger}'s.
 */
@Singleton
public class StatsAggregator {

    private static final Logger LOG = Logger.getLogger(StatsAggregator.class);

    private final StatsRegistry registry;
    private final StatsLedger ledger;
    private final Drops drops;
    private final List<Consumer<LiveStats>> listeners = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService timer;
    private volatile LiveStats latest;
    // Aggregator thread only (a single-thread executor runs every tick).
    private long sequence;
    private long lastTickNanos = System.nanoTime();

    public StatsAggregator(StatsRegistry registry, StatsLedger ledger, Drops drops) {
        this.registry = registry;
        this.ledger = ledger;
        this.drops = drops;
        this.latest = new LiveStats(0, Instant.now(), 0, 0, empty("total"), List.of(), dropped());
    }

    void start(@Observes StartupEvent event) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "portico-stats");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::tickSafely, 1, 1, TimeUnit.SECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /** The most recent interval. */
    public LiveStats latest() {
        return latest;
    }

    /** Called on the aggregator thread after every interval. */
    public void onInterval(Consumer<LiveStats> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<LiveStats> listener) {
        listeners.remove(listener);
    }

    private void tickSafely() {
        try {
            LiveStats stats = tick();
            for (Consumer<LiveStats> listener : listeners) {
                listener.accept(stats);
            }
        } catch (RuntimeException e) {
            LOG.error("Aggregating statistics failed", e);
        }
    }

    /** One interval; on the aggregator thread only. */
    LiveStats tick() {
        long now = System.nanoTime();
        double seconds = Math.max(1e-3, (now - lastTickNanos) / 1e9);
        lastTickNanos = now;
        Histogram allLatency = VhostStats.newHistogram();
        Histogram allUpstream = VhostStats.newHistogram();
        long[] sums = new long[LoopSlot.SIZE];
        long intervalRequests = 0;
        List<VhostLiveStats> vhosts = new ArrayList<>();
        List<VhostStats> all = registry.vhosts();
        all.add(registry.unmatched());
        for (VhostStats vhost : all) {
            VhostStats.Interval interval = ledger.closeInterval(vhost, allLatency, allUpstream);
            long[] counts = interval.totals().counts();
            for (int i = 0; i < sums.length; i++) {
                sums[i] += counts[i];
            }
            intervalRequests += interval.requestsInInterval();
            vhosts.add(view(vhost.name(), interval.totals(), interval.requestsInInterval() / seconds,
                    interval.latency(), interval.upstreamLatency()));
        }
        vhosts.sort(Comparator.comparing(VhostLiveStats::vhost));
        VhostLiveStats total = view("total", new VhostStats.Totals(sums), intervalRequests / seconds,
                Latency.of(allLatency), Latency.of(allUpstream));
        latest = new LiveStats(++sequence, Instant.now(), round(seconds), registry.connections().active(), total,
                List.copyOf(vhosts), dropped());
        return latest;
    }

    private static VhostLiveStats view(String name, VhostStats.Totals totals, double rate, Latency latency,
                                       Latency upstream) {
        Map<String, Long> status = new LinkedHashMap<>();
        for (int c = 1; c <= 5; c++) {
            status.put(c + "xx", totals.statusClass(c));
        }
        Map<String, Long> reasons = new LinkedHashMap<>();
        for (LocalReason reason : LocalReason.values()) {
            long n = totals.reason(reason);
            if (n > 0) {
                reasons.put(reason.code(), n);
            }
        }
        Map<String, Long> cache = new LinkedHashMap<>();
        for (CacheOutcome outcome : CacheOutcome.values()) {
            long n = totals.cache(outcome);
            if (n > 0) {
                cache.put(outcome.code(), n);
            }
        }
        return new VhostLiveStats(name, totals.requests(), round(rate), totals.inFlight(), status, reasons, cache,
                totals.bytesIn(), totals.bytesOut(), latency, upstream, tunnels(totals));
    }

    private static LiveStats.TunnelLiveStats tunnels(VhostStats.Totals totals) {
        Map<String, Long> closed = new LinkedHashMap<>();
        for (TunnelClose why : TunnelClose.values()) {
            long n = totals.tunnelsClosed(why);
            if (n > 0) {
                closed.put(why.code(), n);
            }
        }
        return new LiveStats.TunnelLiveStats(totals.tunnelsOpen(), closed, totals.tunnelBytesIn(),
                totals.tunnelBytesOut(), round(totals.tunnelSeconds()));
    }

    private static VhostLiveStats empty(String name) {
        return view(name, new VhostStats.Totals(new long[LoopSlot.SIZE]), 0, Latency.NONE, Latency.NONE);
    }

    private Map<String, Long> dropped() {
        Map<String, Long> dropped = new LinkedHashMap<>();
        for (Drops.Kind drop : Drops.Kind.values()) {
            dropped.put(drop.code(), drops.count(drop));
        }
        return dropped;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
