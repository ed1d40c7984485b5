package dev.portico.telemetry.analytics.offloop;

/**
 * A bucket a {@link TrafficSink} cannot store however often it is tried: its data, or the stored row it would merge
 * into, is bad. The writer drops it and counts it instead of retrying.
 */
public final class BucketRefused extends RuntimeException {

    public BucketRefused(String message, Throwable cause) {
        super(message, cause);
    }
}
