package dev.portico.vhost;

import java.time.Duration;

/**
 * Passive health beyond connect failures (Envoy's outlier detection): an upstream whose answers say it is in trouble
 * (failures in a row, or too large a share of failures over a window) is ejected for a while, longer each time it is ejected again, but never more than {@code maxEjectedPercent} of the
 * vhost's upstreams at once, and never a vhost's only upstream.
 *
 * @param consecutive5xx           5xx responses in a row that eject (0: never on 5xx)
 * @param consecutiveGatewayErrors connect failures, timeouts and resets in a row that eject (0: never)
 * @param baseEjectionTime         the first ejection's length; the n-th in a row lasts n times this
 * @param maxEjectionTime          the longest an ejection lasts
 * @param maxEjectedPercent        the share of the vhost's upstreams that may be ejected at once (rounded down)
 * @param failureRatio             the share of failed requests (connect failures, timeouts, resets, 5xx) over
 *                                 {@code failureRatioWindow} at or above which an upstream is ejected, 0 to 1 (0: never)
 * @param failureRatioMinRequests  the fewest requests within the window for the failure ratio to count
 * @param failureRatioWindow       the sliding window the failure ratio is measured over
 */
public record OutlierDetectionSpec(boolean enabled, int consecutive5xx, int consecutiveGatewayErrors,
                                   Duration baseEjectionTime, Duration maxEjectionTime, int maxEjectedPercent,
                                   double failureRatio, int failureRatioMinRequests, Duration failureRatioWindow) {

    public static final int DEFAULT_CONSECUTIVE_5XX = 5;
    public static final int DEFAULT_CONSECUTIVE_GATEWAY_ERRORS = 5;
    public static final Duration DEFAULT_BASE_EJECTION_TIME = Duration.ofSeconds(30);
    public static final Duration DEFAULT_MAX_EJECTION_TIME = Duration.ofMinutes(5);
    public static final int DEFAULT_MAX_EJECTED_PERCENT = 50;
    /** Off, as Envoy's failure percentage detector ({@code enforcing_failure_percentage} 0). */
    public static final double DEFAULT_FAILURE_RATIO = 0;
    /** Envoy's {@code failure_percentage_request_volume}. */
    public static final int DEFAULT_FAILURE_RATIO_MIN_REQUESTS = 50;
    /** Envoy's {@code interval}. */
    public static final Duration DEFAULT_FAILURE_RATIO_WINDOW = Duration.ofSeconds(10);

    /** What a vhost that says nothing gets: on, with Envoy's thresholds and a 50% cap, the failure ratio off. */
    public static final OutlierDetectionSpec DEFAULT = new OutlierDetectionSpec(true, DEFAULT_CONSECUTIVE_5XX,
            DEFAULT_CONSECUTIVE_GATEWAY_ERRORS, DEFAULT_BASE_EJECTION_TIME, DEFAULT_MAX_EJECTION_TIME,
            DEFAULT_MAX_EJECTED_PERCENT, DEFAULT_FAILURE_RATIO, DEFAULT_FAILURE_RATIO_MIN_REQUESTS,
            DEFAULT_FAILURE_RATIO_WINDOW);

    /** Whether the failure ratio ejects at all. */
    public boolean failureRatioOn() {
        return enabled && failureRatio > 0;
    }
}
