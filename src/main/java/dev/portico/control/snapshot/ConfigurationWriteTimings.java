package dev.portico.control.snapshot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * {@code portico_configuration_write_seconds{phase}}: where the time of an API write goes, so a slow write can be
 * explained from the metrics alone (issue 18 asked where 150-800 ms writes spent it). The phases, in the order a write
 * runs them:
 * <ul>
 *   <li>{@code commit}: validating, storing and committing the change with its configuration version bump;</li>
 *   <li>{@code publish}: from the commit until a snapshot with the change serves: waiting for the snapshot
 *       reloader (busy with a reload another write or a replica's NOTIFY started), then the reload, unless another
 *       one already published the change;</li>
 *   <li>{@code reload_read}: reading every vhost and certificate of the configuration (once per reload, which may
 *       serve several writes);</li>
 *   <li>{@code reload_compile}: compiling and publishing the routing snapshot (idem).</li>
 * </ul>
 * The two reload phases are timed for every reload, whatever started it; {@code publish} minus them is the wait.
 * Histogram buckets from 1 ms to 5 s, as Prometheus {@code _bucket} series, so percentiles can be read per phase.
 */
@Singleton
public class ConfigurationWriteTimings {

    /** One phase of a write. */
    public enum Phase {
        COMMIT("commit"), PUBLISH("publish"), RELOAD_READ("reload_read"), RELOAD_COMPILE("reload_compile");

        private final String tag;

        Phase(String tag) {
            this.tag = tag;
        }
    }

    private static final Duration[] BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5)};

    private final Timer[] timers = new Timer[Phase.values().length];

    public ConfigurationWriteTimings(MeterRegistry registry) {
        for (Phase phase : Phase.values()) {
            timers[phase.ordinal()] = Timer.builder("portico.configuration.write")
                    .description("Time API writes of the configuration spend in each phase")
                    .tag("phase", phase.tag)
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry);
        }
    }

    /** Records that {@code phase} took from {@code startedNanos} ({@link System#nanoTime()}) until now. */
    public void since(Phase phase, long startedNanos) {
        timers[phase.ordinal()].record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }
}
