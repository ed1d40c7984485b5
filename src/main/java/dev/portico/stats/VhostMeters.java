package dev.portico.stats;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;

/**
 * The meters of one vhost, resolved once when the vhost is compiled so that accounting a request is two
 * increments, not a registry lookup with tags built per request.
 */
public final class VhostMeters {

    /** Meters that record nothing, for dry-run compiles. */
    public static final VhostMeters NONE = new VhostMeters(null, null);

    private final Counter[] byStatusClass;
    private final Timer latency;

    VhostMeters(Counter[] byStatusClass, Timer latency) {
        this.byStatusClass = byStatusClass;
        this.latency = latency;
    }

    /** Accounts one finished request. */
    public void record(int status, long durationNanos) {
        if (latency == null) {
            return;
        }
        int statusClass = status / 100;
        if (statusClass >= 1 && statusClass <= 5) {
            byStatusClass[statusClass - 1].increment();
        }
        latency.record(durationNanos, TimeUnit.NANOSECONDS);
    }
}
