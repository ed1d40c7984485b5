package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.UpstreamLimitsSpec;

import java.util.List;

/**
 * Validates and normalises a vhost's {@code upstreamLimits} block (every field named under
 * {@code upstreamLimits.*}), and turns the normal form into an {@link UpstreamLimitsSpec}. A field left out stays
 * out: its default is the global setting or the vhost's connect timeout, which may change after the vhost is stored.
 */
final class UpstreamLimitsSettingsCheck {

    static final int MAX_PENDING = 1_000_000;

    private UpstreamLimitsSettingsCheck() {
    }

    /** The block in its normal form; null when it sets nothing. */
    static UpstreamLimitsDefinition normalise(UpstreamLimitsDefinition in, List<FieldError> errors) {
        if (in == null || in.maxPending() == null && in.queueTimeout() == null) {
            return null;
        }
        if (in.maxPending() != null && (in.maxPending() < 1 || in.maxPending() > MAX_PENDING)) {
            errors.add(new FieldError("upstreamLimits.maxPending", "must be between 1 and " + MAX_PENDING
                    + ", or left out for portico.upstream.max-pending"));
        }
        String queueTimeout = in.queueTimeout();
        if (queueTimeout != null) {
            try {
                queueTimeout = DurationText.format(DurationText.parse(queueTimeout));
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("upstreamLimits.queueTimeout", e.getMessage()));
            }
        }
        return new UpstreamLimitsDefinition(in.maxPending(), queueTimeout);
    }

    /** For a normalised block, or none. */
    static UpstreamLimitsSpec toSpec(UpstreamLimitsDefinition stored) {
        if (stored == null) {
            return UpstreamLimitsSpec.DEFAULT;
        }
        return new UpstreamLimitsSpec(stored.maxPending(),
                stored.queueTimeout() == null ? null : DurationText.parse(stored.queueTimeout()));
    }
}
