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
    static final Duration MIN_EJECTION = Duration.ofSeconds(1);
    static final Duration MAX_EJECTION = Duration.ofDays(1);

    static final OutlierDetectionDefinition DEFAULT = new OutlierDetectionDefinition(true,
            OutlierDetectionSpec.DEFAULT_CONSECUTIVE_5XX, OutlierDetectionSpec.DEFAULT_CONSECUTIVE_GATEWAY_ERRORS,
            DurationText.format(OutlierDetectionSpec.DEFAULT_BASE_EJECTION_TIME),
            DurationText.format(OutlierDetectionSpec.DEFAULT_MAX_EJECTION_TIME),
            OutlierDetectionSpec.DEFAULT_MAX_EJECTED_PERCENT);

    private final List<FieldError> errors;

    private OutlierDetectionSettingsCheck(List<FieldError> errors) {
        this.errors = errors;
    }

    /** The block with defaults filled in. */
    static OutlierDetectionDefinition normalise(OutlierDetectionDefinition in, List<FieldError> errors) {
        if (in == null) {
            return DEFAULT;
        }
        OutlierDetectionSettingsCheck check = new OutlierDetectionSettingsCheck(errors);
        Duration base = check.duration("baseEjectionTime", in.baseEjectionTime(),
                OutlierDetectionSpec.DEFAULT_BASE_EJECTION_TIME, DurationText.MAX);
        Duration max = check.duration("maxEjectionTime", in.maxEjectionTime(),
                OutlierDetectionSpec.DEFAULT_MAX_EJECTION_TIME, MAX_EJECTION);
        if (base != null && max != null && max.compareTo(base) < 0) {
            check.error("maxEjectionTime", "must be at least baseEjectionTime (" + DurationText.format(base) + ")");
        }
        return new OutlierDetectionDefinition(in.enabled() == null || in.enabled(),
                check.count("consecutive5xx", in.consecutive5xx(), DEFAULT.consecutive5xx(), MAX_IN_A_ROW),
                check.count("consecutiveGatewayErrors", in.consecutiveGatewayErrors(),
                        DEFAULT.consecutiveGatewayErrors(), MAX_IN_A_ROW),
                base == null ? in.baseEjectionTime() : DurationText.format(base),
                max == null ? in.maxEjectionTime() : DurationText.format(max),
                check.count("maxEjectedPercent", in.maxEjectedPercent(), DEFAULT.maxEjectedPercent(), 100));
    }

    /** For output: vhosts stored before outlier detection existed have no block, and get the defaults. */
    static OutlierDetectionDefinition normalised(OutlierDetectionDefinition stored) {
        return stored == null ? DEFAULT : stored;
    }

    /** For a normalised block (or none: the defaults). */
    static OutlierDetectionSpec toSpec(OutlierDetectionDefinition stored) {
        OutlierDetectionDefinition d = normalised(stored);
        return new OutlierDetectionSpec(d.enabled(), d.consecutive5xx(), d.consecutiveGatewayErrors(),
                DurationText.parse(d.baseEjectionTime(), DurationText.MAX, false),
                DurationText.parse(d.maxEjectionTime(), MAX_EJECTION, false), d.maxEjectedPercent());
    }

    private void error(String field, String reason) {
        errors.add(new FieldError("outlierDetection." + field, reason));
    }

    private Integer count(String field, Integer value, int fallback, int max) {
        if (value == null) {
            return fallback;
        }
        if (value < 0 || value > max) {
            error(field, "must be 0-" + max);
        }
        return value;
    }

    private Duration duration(String field, String raw, Duration fallback, Duration max) {
        if (raw == null) {
            return fallback;
        }
        try {
            return DurationText.parse(raw, MIN_EJECTION, max);
        } catch (IllegalArgumentException e) {
            error(field, e.getMessage());
            return null;
        }
    }
}
