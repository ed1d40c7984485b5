package dev.portico.vhost;

import java.time.Duration;

/**
 * Passive health beyond connect failures (Envoy's outlier detection): an upstream whose answers say it is in trouble
 * is ejected for a while, longer each time it is ejected again, but never more than {@code maxEjectedPercent} of the
 * vhost's upstreams at once, and never a vhost's only upstream.
 *
 * @param consecutive5xx           5xx responses in a row that eject (0: never on 5xx)
 * @param consecutiveGatewayErrors connect failures, timeouts and resets in a row that eject (0: never)
 * @param baseEjectionTime         the first ejection's length; the n-th in a row lasts n times this
 * @param maxEjectionTime          the longest an ejection lasts
 * @param maxEjectedPercent        the share of the vhost's upstreams that may be ejected at once (rounded down)
 */
public record OutlierDetectionSpec(boolean enabled, int consecutive5xx, int consecutiveGatewayErrors,
                                   Duration baseEjectionTime, Duration maxEjectionTime, int maxEjectedPercent) {

    public static final int DEFAULT_CONSECUTIVE_5XX = 5;
    public static final int DEFAULT_CONSECUTIVE_GATEWAY_ERRORS = 5;
    public static final Duration DEFAULT_BASE_EJECTION_TIME = Duration.ofSeconds(30);
    public static final Duration DEFAULT_MAX_EJECTION_TIME = Duration.ofMinutes(5);
    public static final int DEFAULT_MAX_EJECTED_PERCENT = 50;

    /** What a vhost that says nothing gets: on, with Envoy's thresholds and a 50% cap. */
    public static final OutlierDetectionSpec DEFAULT = new OutlierDetectionSpec(true, DEFAULT_CONSECUTIVE_5XX,
            DEFAULT_CONSECUTIVE_GATEWAY_ERRORS, DEFAULT_BASE_EJECTION_TIME, DEFAULT_MAX_EJECTION_TIME,
            DEFAULT_MAX_EJECTED_PERCENT);
}
