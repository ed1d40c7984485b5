package dev.portico.vhost;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A custom error page's text split into literal parts and placeholders ({@code {{status}}}, {@code {{reason}}}, ...),
 * parsed once when the vhost is saved and again when it is compiled, so rendering is a walk over the parts. What a
 * placeholder holds is escaped by whoever renders it, for the page's language.
 */
public final class ErrorPageTemplate {

    /** Largest template, in UTF-8 bytes: a page, not a site. */
    public static final int MAX_BYTES = 64 * 1024;

    /** What a placeholder stands for. */
    public enum Field {
        /** The response's status code. */
        STATUS("status"),
        /** The status's reason phrase ({@code Bad Gateway}). */
        TITLE("title"),
        /** The stable reason code ({@code access_denied}, {@code upstream_error} for an upstream's own 5xx). */
        REASON("reason"),
        /** The request id, also in {@code X-Request-Id} and the access log. */
        REQUEST_ID("requestId"),
        /** What went wrong, in a sentence (a problem document's {@code detail}). */
        MESSAGE("message"),
        /** The request's path as the client sent it. */
        PATH("path");

        private final String key;

        Field(String key) {
            this.key = key;
        }

        public String key() {
            return key;
        }

        static Field of(String key) {
            for (Field field : values()) {
                if (field.key.equals(key)) {
                    return field;
                }
            }
            return null;
        }
    }

    private final List<Object> parts;

    private ErrorPageTemplate(List<Object> parts) {
        this.parts = List.copyOf(parts);
    }

    /**
     * @throws IllegalArgumentException naming the first {@code {{...}}} that is not a known placeholder
     */
    public static ErrorPageTemplate parse(String text) {
        List<Object> parts = new ArrayList<>();
        int from = 0;
        while (true) {
            int open = text.indexOf("{{", from);
            if (open < 0) {
                parts.add(text.substring(from));
                return new ErrorPageTemplate(parts);
            }
            int close = text.indexOf("}}", open + 2);
            String key = close < 0 ? null : text.substring(open + 2, close).trim();
            Field field = key == null ? null : Field.of(key);
            if (field == null) {
                String shown = text.substring(open, Math.min(text.length(), close < 0 ? open + 20 : close + 2));
                throw new IllegalArgumentException("has " + shown + ", which is no placeholder: use {{status}}, "
                        + "{{title}}, {{reason}}, {{requestId}}, {{message}} or {{path}}");
            }
            parts.add(text.substring(from, open));
            parts.add(field);
            from = close + 2;
        }
    }

    /**
     * The template with each placeholder replaced by {@code value}'s text for it, which the caller has escaped for the
     * page's language; a null value leaves the placeholder's place empty.
     */
    public String fill(Function<Field, String> value) {
        StringBuilder out = new StringBuilder(512);
        for (Object part : parts) {
            if (part instanceof Field field) {
                String text = value.apply(field);
                if (text != null) {
                    out.append(text);
                }
            } else {
                out.append((String) part);
            }
        }
        return out.toString();
    }

    /** Two templates with the same parts are equal, so an unchanged vhost compares equal across reloads. */
    @Override
    public boolean equals(Object other) {
        return other instanceof ErrorPageTemplate template && template.parts.equals(parts);
    }

    @Override
    public int hashCode() {
        return parts.hashCode();
    }
}
