package dev.portico.proxy.errorpages;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.portico.vhost.ErrorPageTemplate;
import io.vertx.core.buffer.Buffer;

/**
 * One error page filled in. Every value is escaped for the page's language, whatever placeholder it fills: in HTML
 * the five characters that open markup or end an attribute, in JSON what ends or breaks a string. A path or message
 * that carries markup, quotes or a newline thus stays text (the status, a number, needs none).
 */
record PageText(int status, String title, String reason, String requestId, String message, String path) {

    Buffer render(ErrorPageTemplate template, boolean html) {
        return Buffer.buffer(template.fill(field -> {
            String value = switch (field) {
                case STATUS -> Integer.toString(status);
                case TITLE -> title;
                case REASON -> reason;
                case REQUEST_ID -> requestId;
                case MESSAGE -> message;
                case PATH -> path;
            };
            if (value == null) {
                return null;
            }
            return html ? escapeHtml(value) : new String(JsonStringEncoder.getInstance().quoteAsString(value));
        }));
    }

    private static String escapeHtml(String value) {
        StringBuilder out = new StringBuilder(value.length() + 16);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
