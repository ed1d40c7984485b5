package dev.portico.proxy.routes;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;

import java.util.List;
import java.util.Locale;

/**
 * A route's path condition, compiled: an exact path, a prefix ({@code /api/*}: {@code /api} itself and everything
 * below it, so a guard on {@code /admin/*} covers {@code /admin} too), a glob whose {@code *} matches within one
 * segment ({@code /files/*.pdf}, {@code /u/* /edit}), or an RE2 expression. Globs and expressions run on RE2, whose
 * time is linear in the path's length whatever the expression: no route can be made to backtrack for seconds.
 *
 * <p>{@link #literalSegments} are the segments every matching path starts with, which the route table indexes.
 */
final class PathPattern {

    private enum Kind { ANY, EXACT, PREFIX, GLOB, REGEX }

    private final Kind kind;
    private final String literal;
    private final Pattern regex;
    private final boolean caseSensitive;
    private final List<String> literalSegments;

    private PathPattern(Kind kind, String literal, Pattern regex, boolean caseSensitive, List<String> literalSegments) {
        this.kind = kind;
        this.literal = literal;
        this.regex = regex;
        this.caseSensitive = caseSensitive;
        this.literalSegments = literalSegments;
    }

    /**
     * @param path the route's path pattern, or null
     * @param pathRegex the route's expression, or null (at most one of the two is set)
     */
    static PathPattern compile(String path, String pathRegex, boolean caseSensitive) {
        if (pathRegex != null) {
            int flags = caseSensitive ? 0 : Pattern.CASE_INSENSITIVE;
            return new PathPattern(Kind.REGEX, null, Pattern.compile(pathRegex, flags), caseSensitive, List.of());
        }
        if (path == null || path.equals("/*")) {
            return new PathPattern(Kind.ANY, "", null, caseSensitive, List.of());
        }
        String text = caseSensitive ? path : path.toLowerCase(Locale.ROOT);
        int star = text.indexOf('*');
        if (star < 0) {
            return new PathPattern(Kind.EXACT, text, null, caseSensitive, segmentsOf(text));
        }
        if (star == text.length() - 1 && text.endsWith("/*") && star == text.lastIndexOf('*')) {
            String prefix = text.substring(0, text.length() - 2);
            return new PathPattern(Kind.PREFIX, prefix, null, caseSensitive, segmentsOf(prefix));
        }
        String before = text.substring(0, text.lastIndexOf('/', star));
        return new PathPattern(Kind.GLOB, null, Pattern.compile(globExpression(text)), caseSensitive,
                segmentsOf(before));
    }

    /** {@code *} within a segment is {@code [^/]*}; a final {@code /*} is the rest of the path, if any. */
    private static String globExpression(String glob) {
        StringBuilder out = new StringBuilder("^");
        String body = glob.endsWith("/*") ? glob.substring(0, glob.length() - 2) : glob;
        int from = 0;
        for (int star = body.indexOf('*'); star >= 0; star = body.indexOf('*', from)) {
            out.append(Pattern.quote(body.substring(from, star))).append("([^/]*)");
            from = star + 1;
        }
        out.append(Pattern.quote(body.substring(from)));
        out.append(glob.endsWith("/*") ? "(?:/(.*))?$" : "$");
        return out.toString();
    }

    private static List<String> segmentsOf(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/"));
    }

    /** The segments every path this pattern matches starts with (lower case unless case-sensitive). */
    List<String> literalSegments() {
        return literalSegments;
    }

    /**
     * The part of {@code path} the pattern's last {@code *} matched ({@code $path} in a redirect): {@code ""} when it
     * matched nothing; null when the pattern does not match.
     */
    String match(RequestPath path) {
        String text = caseSensitive ? path.matchForm() : path.lowerCase();
        switch (kind) {
            case ANY:
                return text.substring(1);
            case EXACT:
                return text.equals(literal) ? "" : null;
            case PREFIX:
                if (text.equals(literal) || text.equals(literal + "/")) {
                    return "";
                }
                return text.startsWith(literal + "/") ? path.matchForm().substring(literal.length() + 1) : null;
            default:
                Matcher m = regex.matcher(text);
                if (!m.find()) {
                    return null;
                }
                int group = m.groupCount();
                // The capture keeps the client's case: only the comparison ignored it.
                return group == 0 || m.start(group) < 0 ? "" : path.matchForm().substring(m.start(group), m.end(group));
        }
    }
}
