package dev.portico.http.conditional;

import dev.portico.http.syntax.FieldSyntax;
import dev.portico.http.syntax.HttpDate;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;

import java.util.List;

/**
 * Answers a client's conditional request from a stored response (RFC 9110 section 13.2.2, RFC 9111 section
 * 4.3.2), whose validators are the only "current representation" the cache knows.
 */
public final class Conditionals {

    /** What the preconditions ask for. */
    public enum Outcome {
        /** No precondition applies, or all hold: serve the stored response normally. */
        NONE,
        /** Answer 304 with the stored response's headers. */
        NOT_MODIFIED,
        /** Answer 412. */
        PRECONDITION_FAILED
    }

    private static final String WEAK_PREFIX = "W/";

    private Conditionals() {
    }

    /**
     * Evaluates the preconditions in the order of RFC 9110 section 13.2.2:
     * <ol>
     *   <li>{@code If-Match}: {@code *} holds (a response is stored); otherwise one listed entity tag must match
     *       {@code storedEtag} by strong comparison, so a weak or missing stored tag fails. Failing gives 412.
     *   <li>Only without {@code If-Match}, {@code If-Unmodified-Since}: 412 when the stored response was modified
     *       after the date. Ignored when the date is invalid or nothing is known about modification.
     *   <li>{@code If-None-Match}: {@code *} or any listed tag matching by weak comparison fails the condition, which
     *       gives 304 for GET and HEAD and 412 for other methods.
     *   <li>Only without {@code If-None-Match} and for GET and HEAD, {@code If-Modified-Since}: 304 when the stored
     *       response was not modified after the date. Ignored when the date is invalid or a list.
     * </ol>
     * Elements that are not entity tags (say, an unquoted {@code abc}) are compared verbatim, so a client echoing
     * a malformed tag the origin sent still matches it.
     *
     * @param storedEtag the stored {@code ETag} value, or null
     * @param storedLastModifiedMillis the stored {@code Last-Modified}, or -1 when unknown. RFC 9111 section 4.3.2
     *     has a cache fall back to the stored {@code Date}, then to the time it received the response; the caller
     *     passes that fallback here
     */
    public static Outcome evaluate(HttpMethod method, MultiMap requestHeaders, String storedEtag,
                                   long storedLastModifiedMillis) {
        return evaluate(method, requestHeaders, storedEtag, storedLastModifiedMillis, storedLastModifiedMillis);
    }

    /**
     * Like {@link #evaluate(HttpMethod, MultiMap, String, long)} for a cache, which compares
     * {@code If-Modified-Since} with the stored {@code Last-Modified}, else its {@code Date}, else the time it was
     * received (RFC 9111 section 4.3.2); {@code If-Unmodified-Since} still needs a real modification date.
     *
     * @param modifiedSinceBaseMillis what {@code If-Modified-Since} is compared with, or -1
     */
    public static Outcome evaluate(HttpMethod method, MultiMap requestHeaders, String storedEtag,
                                   long storedLastModifiedMillis, long modifiedSinceBaseMillis) {
        String ifMatch = joined(requestHeaders, HttpHeaderNames.IF_MATCH);
        if (ifMatch != null) {
            if (!listMatches(ifMatch, storedEtag, false)) {
                return Outcome.PRECONDITION_FAILED;
            }
        } else if (storedLastModifiedMillis >= 0) {
            long date = HttpDate.parse(requestHeaders.get(HttpHeaderNames.IF_UNMODIFIED_SINCE));
            if (date != HttpDate.INVALID && storedLastModifiedMillis > date) {
                return Outcome.PRECONDITION_FAILED;
            }
        }
        boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD;
        String ifNoneMatch = joined(requestHeaders, HttpHeaderNames.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            if (listMatches(ifNoneMatch, storedEtag, true)) {
                return read ? Outcome.NOT_MODIFIED : Outcome.PRECONDITION_FAILED;
            }
        } else if (read && modifiedSinceBaseMillis >= 0) {
            long date = HttpDate.parse(requestHeaders.get(HttpHeaderNames.IF_MODIFIED_SINCE));
            if (date != HttpDate.INVALID && modifiedSinceBaseMillis <= date) {
                return Outcome.NOT_MODIFIED;
            }
        }
        return Outcome.NONE;
    }

    /**
     * Whether a {@code Range} request's {@code If-Range} lets the range apply (RFC 9110 section 13.1.5): true
     * without {@code If-Range}; for an entity tag, only a strong match with a strong {@code storedEtag}; for a
     * date, only exact equality with the stored {@code Last-Modified} (HTTP-dates have whole seconds, so this is
     * equality of the text's instant). A weak tag, an invalid date or an unknown validator never matches, which
     * means "send the whole response".
     */
    public static boolean ifRangeMatches(MultiMap requestHeaders, String storedEtag, long storedLastModifiedMillis) {
        String ifRange = requestHeaders.get(HttpHeaderNames.IF_RANGE);
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        // An entity tag starts with a quote or W/, a date with a letter (section 13.1.5).
        if (value.startsWith("\"") || value.startsWith(WEAK_PREFIX)) {
            return strongMatch(value, 0, value.length(), storedEtag);
        }
        long date = HttpDate.parse(value);
        return date != HttpDate.INVALID && storedLastModifiedMillis >= 0 && date == storedLastModifiedMillis;
    }

    /**
     * The weak form of an entity tag, for a response whose bytes a transformation (compression) changed: a
     * strong tag gains {@code W/}, a weak one is returned as is, null stays null.
     */
    public static String weakEtag(String etag) {
        if (etag == null || isWeak(etag)) {
            return etag;
        }
        return WEAK_PREFIX + etag;
    }

    /** Whether an entity tag is weak ({@code W/"..."}). */
    public static boolean isWeak(String etag) {
        return etag.startsWith(WEAK_PREFIX);
    }

    /** All lines of a list field joined, or null when absent; usually exactly one line, returned as is. */
    private static String joined(MultiMap headers, CharSequence name) {
        String first = headers.get(name);
        if (first == null) {
            return null;
        }
        List<String> all = headers.getAll(name);
        return all.size() == 1 ? first : String.join(",", all);
    }

    /** Whether {@code *} or any entity tag in the list matches the stored tag, weakly or strongly. */
    private static boolean listMatches(String list, String storedEtag, boolean weak) {
        int n = list.length();
        int i = 0;
        while (i < n) {
            i = FieldSyntax.skipOws(list, i);
            if (i >= n) {
                break;
            }
            if (list.charAt(i) == ',') {
                i++;
                continue;
            }
            int start = i;
            if (list.startsWith(WEAK_PREFIX, i)) {
                i += 2;
            }
            if (i < n && list.charAt(i) == '"') {
                // A quoted opaque-tag may itself contain commas (RFC 9110 section 8.8.3).
                int close = list.indexOf('"', i + 1);
                i = close < 0 ? n : close + 1;
            } else {
                while (i < n && list.charAt(i) != ',') {
                    i++;
                }
            }
            int end = FieldSyntax.trimEnd(list, start, i);
            if (end - start == 1 && list.charAt(start) == '*') {
                return true;
            }
            if (weak ? weakMatch(list, start, end, storedEtag) : strongMatch(list, start, end, storedEtag)) {
                return true;
            }
            while (i < n && list.charAt(i) != ',') {
                i++;
            }
        }
        return false;
    }

    private static boolean strongMatch(String list, int start, int end, String storedEtag) {
        if (storedEtag == null || isWeak(storedEtag) || list.startsWith(WEAK_PREFIX, start)) {
            return false;
        }
        return end - start == storedEtag.length() && list.startsWith(storedEtag, start);
    }

    private static boolean weakMatch(String list, int start, int end, String storedEtag) {
        if (storedEtag == null) {
            return false;
        }
        if (list.startsWith(WEAK_PREFIX, start)) {
            start += 2;
        }
        int storedStart = isWeak(storedEtag) ? 2 : 0;
        int length = storedEtag.length() - storedStart;
        return end - start == length && list.regionMatches(start, storedEtag, storedStart, length);
    }
}
