package dev.portico.control.definition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.ErrorPageTemplate;
import dev.portico.vhost.ErrorPagesSpec;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validates and normalises an {@code errorPages} block (each problem named, {@code errorPages.statuses[2]}) and turns
 * it into an {@link ErrorPagesSpec}. The JSON page is filled in with sample values and parsed, so a placeholder left
 * outside quotes is refused when saved rather than sent as broken JSON.
 */
final class ErrorPagesSettingsCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ErrorPagesSettingsCheck() {
    }

    static ErrorPagesDefinition normalise(ErrorPagesDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        String html = blankToNull(in.html());
        String json = blankToNull(in.json());
        if (html == null && json == null && in.statuses() == null && in.upstreamErrors() == null) {
            // {} : none (on a route, the vhost's pages lifted there).
            return null;
        }
        if (html == null && json == null) {
            errors.add(new FieldError("errorPages", "needs an html page, a json document, or both"));
        }
        ErrorPageTemplate htmlTemplate = template("errorPages.html", html, errors);
        ErrorPageTemplate jsonTemplate = template("errorPages.json", json, errors);
        if (jsonTemplate != null) {
            try {
                JSON.readTree(sample(jsonTemplate));
            } catch (JsonProcessingException e) {
                errors.add(new FieldError("errorPages.json", "is not JSON once its placeholders are filled in (put "
                        + "each but {{status}} inside quotes): " + e.getOriginalMessage()));
            }
        }
        TreeSet<Integer> statuses = new TreeSet<>();
        if (in.statuses() != null) {
            for (int i = 0; i < in.statuses().size(); i++) {
                Integer status = in.statuses().get(i);
                if (status == null || status < 400 || status > 599) {
                    errors.add(new FieldError("errorPages.statuses[" + i + "]", "must be a status from 400 to 599"));
                } else {
                    statuses.add(status);
                }
            }
        }
        boolean upstream = in.upstreamErrors() != null && in.upstreamErrors();
        if (upstream && !statuses.isEmpty() && statuses.last() < 500) {
            errors.add(new FieldError("errorPages.upstreamErrors", "applies to upstream 5xx, and statuses lists none"));
        }
        return new ErrorPagesDefinition(html, json, List.copyOf(statuses), upstream);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    private static ErrorPageTemplate template(String field, String text, List<FieldError> errors) {
        if (text == null) {
            return null;
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > ErrorPageTemplate.MAX_BYTES) {
            errors.add(new FieldError(field, "must be at most 64 KiB (has " + bytes + " bytes)"));
            return null;
        }
        try {
            return ErrorPageTemplate.parse(text);
        } catch (IllegalArgumentException e) {
            errors.add(new FieldError(field, e.getMessage()));
            return null;
        }
    }

    /** The template with a number for the status and a plain word for every other placeholder. */
    private static String sample(ErrorPageTemplate template) {
        return template.fill(field -> field == ErrorPageTemplate.Field.STATUS ? "500" : "x");
    }

    static ErrorPagesSpec toSpec(ErrorPagesDefinition stored) {
        if (stored == null || stored.html() == null && stored.json() == null) {
            return ErrorPagesSpec.NONE;
        }
        return new ErrorPagesSpec(stored.html() == null ? null : ErrorPageTemplate.parse(stored.html()),
                stored.json() == null ? null : ErrorPageTemplate.parse(stored.json()),
                stored.statuses() == null ? Set.of() : new HashSet<>(stored.statuses()),
                stored.upstreamErrors() != null && stored.upstreamErrors());
    }
}
