package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.RetryDefinition;
import dev.portico.vhost.RetrySpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validates and normalises a vhost's {@code retry} block, and turns the normal form into a {@link RetrySpec}. The
 * normal form lists {@code on} in a fixed order (connect_failure, timeout, reset, then statuses ascending) and fills
 * in every default, {@code maxBackoff} from {@code backoff} as Envoy does.
 */
final class RetrySettingsCheck extends BlockCheck {

    static final int MAX_ATTEMPTS = 10;
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    static final Duration MAX_MAX_BACKOFF = Duration.ofMinutes(1);
    static final long MAX_BUFFER = 16L << 20;
    static final int MAX_MIN_RETRIES_PER_SECOND = 1000;
    private static final List<String> CONDITIONS = List.of("connect_failure", "timeout", "reset");

    private static final RetryDefinition DEFAULT = definition(RetrySpec.DEFAULT);

    private RetrySettingsCheck(List<FieldError> errors) {
        super("retry", errors);
    }

    /** The block with defaults filled in; problems are added to {@code errors} under {@code retry.*}. */
    static RetryDefinition normalise(RetryDefinition in, List<FieldError> errors) {
        if (in == null) {
            return DEFAULT;
        }
        RetrySettingsCheck check = new RetrySettingsCheck(errors);
        String backoff = check.duration("backoff", in.backoff(), DEFAULT.backoff(), MAX_BACKOFF);
        String maxBackoff = check.maxBackoff(in.maxBackoff(), backoff);
        return new RetryDefinition(
                check.on(in.on()),
                check.count("attempts", in.attempts(), DEFAULT.attempts(), 1, MAX_ATTEMPTS),
                in.perTryTimeout() == null ? null
                        : check.duration("perTryTimeout", in.perTryTimeout(), null, DurationText.MAX),
                backoff,
                maxBackoff,
                check.bufferSize(in.retryBufferSize()),
                check.share("budget", in.budget(), DEFAULT.budget(), true),
                check.count("minRetriesPerSecond", in.minRetriesPerSecond(), DEFAULT.minRetriesPerSecond(), 0,
                        MAX_MIN_RETRIES_PER_SECOND));
    }

    /** For output: stored definitions written before retries were configurable have no block. */
    static RetryDefinition normalised(RetryDefinition stored) {
        return stored == null ? DEFAULT : stored;
    }

    /** For a normalised block (or none: the defaults). */
    static RetrySpec toSpec(RetryDefinition d) {
        if (d == null) {
            return RetrySpec.DEFAULT;
        }
        Set<Integer> statuses = new HashSet<>();
        for (String condition : d.on()) {
            if (!CONDITIONS.contains(condition)) {
                statuses.add(Integer.parseInt(condition));
            }
        }
        Duration backoff = DurationText.parse(d.backoff(), MAX_BACKOFF, true);
        return new RetrySpec(d.on().contains("connect_failure"), d.on().contains("timeout"), d.on().contains("reset"),
                statuses, d.attempts(),
                d.perTryTimeout() == null ? null : DurationText.parse(d.perTryTimeout()),
                backoff, DurationText.parse(d.maxBackoff(), MAX_MAX_BACKOFF, true),
                ByteSizeText.parse(d.retryBufferSize(), 0, MAX_BUFFER), d.budget(), d.minRetriesPerSecond());
    }

    private static RetryDefinition definition(RetrySpec spec) {
        List<String> on = new ArrayList<>();
        if (spec.connectFailure()) {
            on.add("connect_failure");
        }
        if (spec.reset()) {
            on.add("reset");
        }
        return new RetryDefinition(on, spec.attempts(), null, DurationText.format(spec.backoff()),
                DurationText.format(spec.maxBackoff()), ByteSizeText.format(spec.bufferBytes()), spec.budget(),
                spec.minRetriesPerSecond());
    }

    private List<String> on(List<String> on) {
        if (on == null) {
            return DEFAULT.on();
        }
        List<String> conditions = new ArrayList<>();
        Set<Integer> statuses = new TreeSet<>();
        for (int i = 0; i < on.size(); i++) {
            String raw = on.get(i);
            String condition = raw == null ? null : raw.trim().toLowerCase(Locale.ROOT);
            String field = "on[" + i + "]";
            if (condition != null && CONDITIONS.contains(condition)) {
                if (conditions.contains(condition)) {
                    error(field, "'" + condition + "' is listed twice");
                }
                conditions.add(condition);
            } else if (condition != null && condition.matches("[45][0-9][0-9]")) {
                if (!statuses.add(Integer.parseInt(condition))) {
                    error(field, "'" + condition + "' is listed twice");
                }
            } else {
                error(field, "must be connect_failure, timeout, reset or a status from 400 to 599, e.g. \"503\"");
            }
        }
        List<String> out = new ArrayList<>();
        for (String condition : CONDITIONS) {
            if (conditions.contains(condition)) {
                out.add(condition);
            }
        }
        for (int status : statuses) {
            out.add(Integer.toString(status));
        }
        return out;
    }

    private String duration(String field, String value, String fallback, Duration max) {
        if (value == null) {
            return fallback;
        }
        try {
            // A per-try timeout of zero would fail every try; a backoff of zero retries at once.
            return DurationText.format(DurationText.parse(value, max, !field.equals("perTryTimeout")));
        } catch (IllegalArgumentException e) {
            error(field, e.getMessage());
            return value;
        }
    }

    private String maxBackoff(String value, String backoff) {
        Duration base;
        try {
            base = DurationText.parse(backoff, MAX_BACKOFF, true);
        } catch (IllegalArgumentException reported) {
            return value;
        }
        if (value == null) {
            return DurationText.format(base.multipliedBy(RetrySpec.MAX_BACKOFF_FACTOR));
        }
        String max = duration("maxBackoff", value, null, MAX_MAX_BACKOFF);
        try {
            if (DurationText.parse(max, MAX_MAX_BACKOFF, true).compareTo(base) < 0) {
                error("maxBackoff", "must be at least backoff (" + backoff + ")");
            }
        } catch (IllegalArgumentException reported) {
            // already reported above
        }
        return max;
    }

    private String bufferSize(String value) {
        if (value == null) {
            return DEFAULT.retryBufferSize();
        }
        try {
            return ByteSizeText.format(ByteSizeText.parse(value, 0, MAX_BUFFER));
        } catch (IllegalArgumentException e) {
            error("retryBufferSize", e.getMessage());
            return value;
        }
    }
}
