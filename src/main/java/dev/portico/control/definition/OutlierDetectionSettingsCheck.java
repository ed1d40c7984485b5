package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.OutlierDetectionSpec;

import java.time.Duration;
import java.util.List;

/**
 * Validates and normalises a vhost's {@code outlierDetection} block (every field named under
 * {@code outlierDetection.*}), and turns the normal form into an {@link OutlierDetectionSpec}.
 */
final class OutlierDetectionSettingsCheck {

    static final int MAX_IN_A_ROW = 1000;
    static final int MAX_MIN_REQUESTS = 100_000;
    static final Duration MIN_EJECTION = Duration.ofSeconds(1);
    static final Duration MAX_EJECTION = Duration.ofDays(1);
    static final Duration MIN_WINDOW = Duration.ofSeconds(1);
    static final Duration MAX_WINDOW = Duration.ofMinutes(10);

    static final OutlierDetectionDefinition DEFAULT = new OutlierDetectionDefinition(true,
            OutlierDetectionSpec.DEFAULT_CONSECUTIVE_5XX, OutlierDetectionSpec.DEFAULT_CONSECUTIVE_GATEWAY_ERRORS,
            DurationText.format(OutlierDetectionSpec.DEFAULT_BASE_EJECTION_TIME),
            DurationText.format(OutlierDetectionSpec.DEFAULT_MAX_EJECTION_TIME),
            OutlierDetectionSpec.DEFAULT_MAX_EJECTED_PERCENT, OutlierDetectionSpec.DEFAULT_FAILURE_RATIO,
            OutlierDetectionSpec.DEFAULT_FAILURE_RATIO_MIN_REQUESTS,
            DurationText.format(OutlierDetectionSpec.DEFAULT_FAILURE_RATIO_WINDOW));

    private OutlierDetectionSettingsCheck() {
    }

    /** The block with defaults filled in. */
    static OutlierDetectionDefinition normalise(OutlierDetectionDefinition in, List<FieldError> errors) {
        if (in == null) {
            return DEFAULT;
        }
        BlockCheck check = new BlockCheck("outlierDetection", errors);
        Duration base = check.duration("baseEjectionTime", in.baseEjectionTime(),
                OutlierDetectionSpec.DEFAULT_BASE_EJECTION_TIME, MIN_EJECTION, DurationText.MAX);
        Duration max = check.duration("maxEjectionTime", in.maxEjectionTime(),
                OutlierDetectionSpec.DEFAULT_MAX_EJECTION_TIME, MIN_EJECTION, MAX_EJECTION);
        if (base != null && max != null && max.compareTo(base) < 0) {
            check.error("maxEjectionTime", "must be at least baseEjectionTime (" + DurationText.format(base) + ")");
        }
        return new OutlierDetectionDefinition(in.enabled() == null || in.enabled(),
                check.count("consecutive5xx", in.consecutive5xx(), DEFAULT.consecutive5xx(), 0, MAX_IN_A_ROW),
                check.count("consecutiveGatewayErrors", in.consecutiveGatewayErrors(),
                        DEFAULT.consecutiveGatewayErrors(), 0, MAX_IN_A_ROW),
                BlockCheck.text(base, in.baseEjectionTime()),
                BlockCheck.text(max, in.maxEjectionTime()),
                check.count("maxEjectedPercent", in.maxEjectedPercent(), DEFAULT.maxEjectedPercent(), 0, 100),
                check.share("failureRatio", in.failureRatio(), DEFAULT.failureRatio(), true),
                check.count("failureRatioMinRequests", in.failureRatioMinRequests(),
                        DEFAULT.failureRatioMinRequests(), 1, MAX_MIN_REQUESTS),
                BlockCheck.text(check.duration("failureRatioWindow", in.failureRatioWindow(),
                        OutlierDetectionSpec.DEFAULT_FAILURE_RATIO_WINDOW, MIN_WINDOW, MAX_WINDOW),
                        in.failureRatioWindow()));
    }

    /**
     * For output: vhosts stored before outlier detection existed have no block, and get the defaults; those stored
     * before the failure ratio existed get its defaults (off).
     */
    static OutlierDetectionDefinition normalised(OutlierDetectionDefinition stored) {
        if (stored == null) {
            return DEFAULT;
        }
        if (stored.failureRatio() != null) {
            return stored;
        }
        return new OutlierDetectionDefinition(stored.enabled(), stored.consecutive5xx(),
                stored.consecutiveGatewayErrors(), stored.baseEjectionTime(), stored.maxEjectionTime(),
                stored.maxEjectedPercent(), DEFAULT.failureRatio(), DEFAULT.failureRatioMinRequests(),
                DEFAULT.failureRatioWindow());
    }

    /** For a normalised block (or none: the defaults). */
    static OutlierDetectionSpec toSpec(OutlierDetectionDefinition stored) {
        OutlierDetectionDefinition d = normalised(stored);
        return new OutlierDetectionSpec(d.enabled(), d.consecutive5xx(), d.consecutiveGatewayErrors(),
                DurationText.parse(d.baseEjectionTime(), DurationText.MAX, false),
                DurationText.parse(d.maxEjectionTime(), MAX_EJECTION, false), d.maxEjectedPercent(),
                d.failureRatio(), d.failureRatioMinRequests(),
                DurationText.parse(d.failureRatioWindow(), MAX_WINDOW, false));
    }
}
