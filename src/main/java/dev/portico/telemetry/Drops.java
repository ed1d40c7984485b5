package dev.portico.telemetry;

import java.util.concurrent.atomic.LongAdder;

/**
 * Work the accounting chose to drop rather than slow down or fail a request: a full analytics queue, analytics
 * buckets the database refused, access-log lines the disk could not take, SSE events a slow subscriber could not
 * receive. Rare by design, so a shared adder is fine here.
 */
public enum Drops {
    ANALYTICS_SAMPLES("analytics_samples"),
    /** Requests of analytics buckets the database refused to store (bad data, not an outage): dropped, not retried. */
    ANALYTICS_REFUSED("analytics_refused"),
    ACCESS_LOG_LINES("access_log_lines"),
    SSE_EVENTS("sse_events");

    private final String code;
    private final LongAdder count = new LongAdder();

    Drops(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    public void add(long n) {
        count.add(n);
    }

    public long count() {
        return count.sum();
    }
}
