package dev.portico.telemetry.analytics.offloop;

/**
 * A {@link TrafficSink} could not reach its store (the database is down), and whoever watches that store has
 * logged the outage already: the writer keeps the buckets and retries, logging nothing more than a debug line.
 */
public final class SinkUnreachable extends RuntimeException {

    public SinkUnreachable(String message, Throwable cause) {
        super(message, cause);
    }
}
