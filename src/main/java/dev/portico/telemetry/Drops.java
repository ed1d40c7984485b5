package dev.portico.telemetry;

import jakarta.inject.Singleton;

import java.util.concurrent.atomic.LongAdder;

/**
 * Work the accounting chose to drop rather than slow down or fail a request: a full analytics queue, analytics
 * buckets the database refused, access-log lines the disk could not take, SSE events a slow subscriber could not
 * receive. One set per application (a CDI singleton handed to whatever may drop), so a test that builds its own
 * writers, queues or streams counts in its own set and no test sees another's drops. Rare by design, so an adder
 * per kind is fine here.
 */
@Singleton
public class Drops {

    /** What was dropped; {@link #code()} is the {@code what} label of {@code portico_dropped_total}. */
    public enum Kind {
        ANALYTICS_SAMPLES("analytics_samples"),
        /** Requests of analytics buckets the database refused to store (bad data, not an outage): not retried. */
        ANALYTICS_REFUSED("analytics_refused"),
        ACCESS_LOG_LINES("access_log_lines"),
        SSE_EVENTS("sse_events");

        private final String code;

        Kind(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final LongAdder[] counts = new LongAdder[Kind.values().length];

    public Drops() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void add(Kind kind, long n) {
        counts[kind.ordinal()].add(n);
    }

    /** Dropped since this set was made (the application started). */
    public long count(Kind kind) {
        return counts[kind.ordinal()].sum();
    }
}
