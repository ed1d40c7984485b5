package dev.portico.http.syntax;

/**
 * The bits of field-value grammar every rule needs (RFC 9110 section 5.6), working on index ranges of the header
 * string so that scanning a field allocates nothing.
 */
public final class FieldSyntax {

    /** Delta-seconds that are not 1*DIGIT. */
    public static final long INVALID_DELTA = -2;

    /** The largest delta-seconds a recipient keeps (RFC 9111 section 1.2.2). */
    public static final long MAX_DELTA_SECONDS = 2147483648L;

    private FieldSyntax() {
    }

    /** Optional whitespace: space or horizontal tab. */
    public static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    /** The first index at or after {@code i} that is not whitespace. */
    public static int skipOws(String s, int i) {
        while (i < s.length() && isOws(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** {@code end} moved back over trailing whitespace, not before {@code start}. */
    public static int trimEnd(String s, int start, int end) {
        while (end > start && isOws(s.charAt(end - 1))) {
            end--;
        }
        return end;
    }

    /**
     * Delta-seconds (1*DIGIT) in {@code s[start, end)}, saturating at {@link #MAX_DELTA_SECONDS};
     * {@link #INVALID_DELTA} for an empty range (or {@code start < 0}, no value) or any non-digit, signs included.
     */
    public static long deltaSeconds(String s, int start, int end) {
        if (start < 0 || start >= end) {
            return INVALID_DELTA;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return INVALID_DELTA;
            }
            if (value < MAX_DELTA_SECONDS) {
                value = Math.min(value * 10 + (c - '0'), MAX_DELTA_SECONDS);
            }
        }
        return value;
    }
}
