package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition.CompressionDefinition;
import dev.portico.control.definition.VhostDefinition.CompressionLevelsDefinition;
import dev.portico.vhost.CompressionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates and normalises a vhost's {@code compression} block, and turns the normal form into a
 * {@link CompressionSpec}.
 */
final class CompressionSettingsCheck {

    static final int MAX_TYPES = 100;
    static final long MAX_MIN_LENGTH = 1L << 30;
    private static final Set<String> CODINGS = Set.of("br", "zstd", "gzip");
    private static final String TOKEN = "[a-z0-9!#$&^_.+-]{1,127}";
    private static final Pattern MEDIA_RANGE = Pattern.compile(TOKEN + "/(\\*|\\*\\+" + TOKEN + "|" + TOKEN + ")");

    private static final CompressionDefinition DEFAULT = new CompressionDefinition(false,
            CompressionSpec.DEFAULT_ENCODINGS, CompressionSpec.DEFAULT_TYPES,
            ByteSizeText.format(CompressionSpec.DEFAULT_MIN_LENGTH),
            new CompressionLevelsDefinition(CompressionSpec.DEFAULT_GZIP_LEVEL, CompressionSpec.DEFAULT_BROTLI_LEVEL,
                    CompressionSpec.DEFAULT_ZSTD_LEVEL));

    private final List<FieldError> errors;

    private CompressionSettingsCheck(List<FieldError> errors) {
        this.errors = errors;
    }

    /** The block with defaults filled in; problems are added to {@code errors} under {@code compression.*}. */
    static CompressionDefinition normalise(CompressionDefinition in, List<FieldError> errors) {
        if (in == null) {
            return DEFAULT;
        }
        CompressionSettingsCheck check = new CompressionSettingsCheck(errors);
        CompressionLevelsDefinition levels = in.levels() == null ? DEFAULT.levels() : in.levels();
        return new CompressionDefinition(in.enabled() != null && in.enabled(),
                check.encodings(in.encodings()),
                check.types(in.types()),
                check.minLength(in.minLength()),
                new CompressionLevelsDefinition(
                        check.level("gzip", levels.gzip(), DEFAULT.levels().gzip(), 1, 9),
                        check.level("br", levels.br(), DEFAULT.levels().br(), 0, 11),
                        check.level("zstd", levels.zstd(), DEFAULT.levels().zstd(), 1, 19)));
    }

    /** For output: stored definitions written before compression existed have no block. */
    static CompressionDefinition normalised(CompressionDefinition stored) {
        return stored == null ? DEFAULT : stored;
    }

    /** For a normalised block. */
    static CompressionSpec toSpec(CompressionDefinition d) {
        if (d == null) {
            return CompressionSpec.DISABLED;
        }
        return new CompressionSpec(d.enabled(), d.encodings(), d.types(),
                ByteSizeText.parse(d.minLength(), 0, MAX_MIN_LENGTH), d.levels().gzip(), d.levels().br(),
                d.levels().zstd());
    }

    private void error(String field, String reason) {
        errors.add(new FieldError("compression." + field, reason));
    }

    private List<String> encodings(List<String> encodings) {
        if (encodings == null) {
            return DEFAULT.encodings();
        }
        if (encodings.isEmpty()) {
            error("encodings", "must list at least one of br, zstd, gzip (disable compression instead)");
            return encodings;
        }
        List<String> out = new ArrayList<>(3);
        for (int i = 0; i < encodings.size(); i++) {
            String raw = encodings.get(i);
            String coding = raw == null ? null : raw.trim().toLowerCase(Locale.ROOT);
            if (coding == null || !CODINGS.contains(coding)) {
                error("encodings[" + i + "]", "must be br, zstd or gzip");
            } else if (out.contains(coding)) {
                error("encodings[" + i + "]", "'" + coding + "' is listed twice");
            } else {
                out.add(coding);
            }
        }
        return out;
    }

    private List<String> types(List<String> types) {
        if (types == null) {
            return DEFAULT.types();
        }
        if (types.isEmpty() || types.size() > MAX_TYPES) {
            error("types", "must list 1 to " + MAX_TYPES + " media types (disable compression instead of none)");
            return types;
        }
        List<String> out = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            String raw = types.get(i);
            String type = raw == null ? null : raw.trim().toLowerCase(Locale.ROOT);
            if (type == null || !MEDIA_RANGE.matcher(type).matches()) {
                error("types[" + i + "]", "must be a media type like text/html, text/* or application/*+json");
            } else if (!out.contains(type)) {
                out.add(type);
            }
        }
        return out;
    }

    private String minLength(String value) {
        if (value == null) {
            return DEFAULT.minLength();
        }
        try {
            return ByteSizeText.format(ByteSizeText.parse(value, 0, MAX_MIN_LENGTH));
        } catch (IllegalArgumentException e) {
            error("minLength", e.getMessage());
            return value;
        }
    }

    private Integer level(String codec, Integer value, Integer fallback, int min, int max) {
        if (value == null) {
            return fallback;
        }
        if (value < min || value > max) {
            error("levels." + codec, "must be " + min + "-" + max);
        }
        return value;
    }
}
