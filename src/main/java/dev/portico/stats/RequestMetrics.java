package dev.portico.stats;

import dev.portico.dataplane.LocalReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prometheus meters of the data plane: {@code portico_requests_total{vhost,status_class}},
 * {@code portico_request_duration_seconds{vhost}} (histogram) and {@code portico_local_replies_total{reason}}.
 * Requests no vhost serves are accounted under {@code vhost="(none)"}.
 */
@Singleton
public class RequestMetrics {

    public static final String UNMATCHED = "(none)";

    private final MeterRegistry registry;
    private final Map<String, VhostMeters> byVhost = new ConcurrentHashMap<>();
    private final Map<String, Meter[]> registered = new ConcurrentHashMap<>();
    private final Counter[] localReplies;
    private final VhostMeters unmatched;

    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
        LocalReason[] reasons = LocalReason.values();
        this.localReplies = new Counter[reasons.length];
        for (LocalReason reason : reasons) {
            localReplies[reason.ordinal()] = Counter.builder("portico.local.replies")
                    .description("Requests Portico answered or ended itself, by reason")
                    .tag("reason", reason.code())
                    .register(registry);
        }
        this.unmatched = create(UNMATCHED);
    }

    /** The meters of a vhost, created on first use. */
    public VhostMeters forVhost(String name) {
        return byVhost.computeIfAbsent(name, this::create);
    }

    public VhostMeters unmatched() {
        return unmatched;
    }

    public void localReply(LocalReason reason) {
        localReplies[reason.ordinal()].increment();
    }

    /** Drops the meters of vhosts that no longer exist, so deleted vhosts leave no series behind. */
    public void retainVhosts(Set<String> names) {
        for (String name : Set.copyOf(byVhost.keySet())) {
            if (!names.contains(name) && !name.equals(UNMATCHED)) {
                byVhost.remove(name);
                Meter[] meters = registered.remove(name);
                if (meters != null) {
                    for (Meter meter : meters) {
                        registry.remove(meter);
                    }
                }
            }
        }
    }

    private VhostMeters create(String vhost) {
        Counter[] counters = new Counter[5];
        for (int i = 0; i < 5; i++) {
            counters[i] = Counter.builder("portico.requests")
                    .description("Requests handled by the data plane, by vhost and status class")
                    .tag("vhost", vhost)
                    .tag("status_class", (i + 1) + "xx")
                    .register(registry);
        }
        Timer latency = Timer.builder("portico.request.duration")
                .description("Time from request head to the end of the response")
                .tag("vhost", vhost)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60))
                .register(registry);
        Meter[] all = new Meter[6];
        System.arraycopy(counters, 0, all, 0, 5);
        all[5] = latency;
        registered.put(vhost, all);
        return new VhostMeters(counters, latency);
    }
}
