package dev.portico.http.negotiation;

import dev.portico.http.syntax.FieldSyntax;

/**
 * {@code Accept-Language} (RFC 9110 section 12.5.4) in a canonical form, for the secondary cache key: RFC 9111
 * section 4.1 lets a cache normalise a varying field "in a way that is known to have identical semantics, according
 * to the header field's specification". So:
 * <ul>
 *   <li>language ranges are lower-cased (they are case-insensitive, RFC 4647 section 2.1): {@code en-US} and
 *       {@code en-us} are one variant;</li>
 *   <li>{@code q=1} (or {@code q=1.000}) is dropped, other weights are written as the shortest qvalue
 *       ({@code q=0.50} and {@code Q=0.5} are both {@code q=0.5}); whitespace and empty elements go;</li>
 *   <li>elements are ordered by weight, highest first, keeping the sender's order among equal weights, since
 *       that order is the preference among them: {@code de, en;q=0.5} and {@code en;q=0.5, de} are one variant,
 *       {@code de, en} and {@code en, de} are not.</li>
 * </ul>
 * A value with any element that is not {@code language-range [weight]} has no canonical form: the caller keys it
 * by its text, so a value whose meaning is unknown never shares a variant with a different one.
 */
public final class AcceptLanguage {

    /** A language range's subtags are at most 8 characters (RFC 4647 section 2.1). */
    private static final int MAX_SUBTAG = 8;
    private static final int FULL_WEIGHT = 1000;

    private AcceptLanguage() {
    }

    /**
     * Appends the canonical form of {@code value} (all field lines joined with commas) to {@code key}; false, with
     * nothing appended, when an element is malformed.
     */
    public static boolean appendCanonical(StringBuilder key, String value) {
        int n = value.length();
        int elements = 1;
        for (int i = 0; i < n; i++) {
            if (value.charAt(i) == ',') {
                elements++;
            }
        }
        // Per element: start and end of its range, its weight; filled for the non-empty ones.
        int[] parsed = new int[3 * elements];
        int count = 0;
        int i = 0;
        while (i <= n) {
            int end = value.indexOf(',', i);
            if (end < 0) {
                end = n;
            }
            int start = FieldSyntax.skipOws(value, i);
            int trimmed = FieldSyntax.trimEnd(value, start, end);
            if (trimmed > start) {
                int rangeEnd = rangeEnd(value, start, trimmed);
                int weight = rangeEnd < 0 ? -1 : weight(value, rangeEnd, trimmed);
                if (weight < 0) {
                    return false;
                }
                // Insertion keeps the list sorted by weight, highest first, and stable among equals.
                int at = count;
                while (at > 0 && parsed[3 * (at - 1) + 2] < weight) {
                    System.arraycopy(parsed, 3 * (at - 1), parsed, 3 * at, 3);
                    at--;
                }
                parsed[3 * at] = start;
                parsed[3 * at + 1] = rangeEnd;
                parsed[3 * at + 2] = weight;
                count++;
            }
            i = end + 1;
        }
        for (int e = 0; e < count; e++) {
            if (e > 0) {
                key.append(',');
            }
            for (int c = parsed[3 * e], end = parsed[3 * e + 1]; c < end; c++) {
                char ch = value.charAt(c);
                key.append(ch >= 'A' && ch <= 'Z' ? (char) (ch + ('a' - 'A')) : ch);
            }
            int weight = parsed[3 * e + 2];
            if (weight != FULL_WEIGHT) {
                appendWeight(key, weight);
            }
        }
        return true;
    }

    /**
     * {@code ;q=} and a weight below 1 as the shortest qvalue ({@code 0}, {@code 0.5}, {@code 0.05}): itself a
     * valid element, so no malformed value keyed by its text can collide with a canonical one.
     */
    private static void appendWeight(StringBuilder key, int thousandths) {
        key.append(";q=0");
        if (thousandths > 0) {
            key.append('.');
            int digits = thousandths;
            int scale = 100;
            while (digits > 0) {
                key.append((char) ('0' + digits / scale));
                digits %= scale;
                scale /= 10;
            }
        }
    }

    /**
     * The end of the {@code language-range} starting at {@code start}: {@code "*"} or
     * {@code 1*8ALPHA *("-" 1*8alphanum)}; -1 when there is none.
     */
    private static int rangeEnd(String s, int start, int end) {
        if (s.charAt(start) == '*') {
            return start + 1;
        }
        int i = start;
        int subtag = 0;
        boolean first = true;
        while (i < end) {
            char c = s.charAt(i);
            boolean alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (alpha || (!first && c >= '0' && c <= '9')) {
                if (++subtag > MAX_SUBTAG) {
                    return -1;
                }
            } else if (c == '-' && subtag > 0) {
                subtag = 0;
                first = false;
            } else {
                break;
            }
            i++;
        }
        return subtag == 0 ? -1 : i;
    }

    /**
     * The weight in thousandths of what follows a range in {@code s[i, end)}: nothing (1000) or
     * {@code OWS ";" OWS "q=" qvalue}, where {@code qvalue = "0" ["." 0*3DIGIT] / "1" ["." 0*3"0"]}; -1 otherwise.
     */
    private static int weight(String s, int i, int end) {
        i = FieldSyntax.skipOws(s, i);
        if (i == end) {
            return FULL_WEIGHT;
        }
        if (s.charAt(i) != ';') {
            return -1;
        }
        i = FieldSyntax.skipOws(s, i + 1);
        if (end - i < 3 || (s.charAt(i) != 'q' && s.charAt(i) != 'Q') || s.charAt(i + 1) != '=') {
            return -1;
        }
        i += 2;
        char whole = s.charAt(i++);
        if (whole != '0' && whole != '1') {
            return -1;
        }
        int weight = whole == '1' ? FULL_WEIGHT : 0;
        if (i == end) {
            return weight;
        }
        if (s.charAt(i++) != '.' || end - i > 3) {
            return -1;
        }
        for (int scale = 100; i < end; i++, scale /= 10) {
            char c = s.charAt(i);
            if (c < '0' || c > '9' || (whole == '1' && c != '0')) {
                return -1;
            }
            weight += (c - '0') * scale;
        }
        return weight;
    }
}
