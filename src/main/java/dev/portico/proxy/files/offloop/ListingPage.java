package dev.portico.proxy.files.offloop;

import io.netty.handler.codec.DateFormatter;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Date;
import java.util.List;

/**
 * The HTML page of a directory listing: directories first, then files, each by name; links percent-encoded and
 * names HTML-escaped, so a file called {@code <script>} or {@code a"b} is shown, not run. Pure.
 */
public final class ListingPage {

    /** One directory entry. */
    public record Entry(String name, boolean directory, long size, long modifiedMillis) {
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ListingPage() {
    }

    /** @param path the directory's decoded URL path, ending in {@code /} */
    public static Buffer render(String path, List<Entry> entries, boolean truncated) {
        List<Entry> sorted = entries.stream()
                .sorted(Comparator.comparing((Entry e) -> !e.directory()).thenComparing(Entry::name))
                .toList();
        String title = "Index of " + html(path);
        StringBuilder out = new StringBuilder(512 + 128 * sorted.size());
        out.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title></head>\n<body><h1>").append(title).append("</h1>\n<table>\n")
                .append("<tr><th>Name</th><th>Size</th><th>Last modified</th></tr>\n");
        if (!path.equals("/")) {
            out.append("<tr><td><a href=\"../\">../</a></td><td></td><td></td></tr>\n");
        }
        for (Entry e : sorted) {
            String suffix = e.directory() ? "/" : "";
            out.append("<tr><td><a href=\"").append(segment(e.name())).append(suffix).append("\">")
                    .append(html(e.name())).append(suffix).append("</a></td><td>")
                    .append(e.directory() ? "-" : Long.toString(e.size())).append("</td><td>")
                    .append(DateFormatter.format(new Date(e.modifiedMillis()))).append("</td></tr>\n");
        }
        out.append("</table>\n");
        if (truncated) {
            out.append("<p>Only the first ").append(sorted.size()).append(" entries are shown.</p>\n");
        }
        out.append("</body></html>\n");
        return Buffer.buffer(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Escapes the five characters that matter in HTML text and attribute values. */
    static String html(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * A file name as one path segment of a relative link: everything but RFC 3986 unreserved characters is
     * percent-encoded as UTF-8, so {@code a:b} cannot become a scheme and {@code ?} or {@code #} stay in the name.
     */
    static String segment(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }
}
