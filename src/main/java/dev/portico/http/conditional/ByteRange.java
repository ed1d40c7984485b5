package dev.portico.http.conditional;

import dev.portico.http.syntax.FieldSyntax;

/**
 * Single byte-range requests served from a complete stored response (RFC 9110 section 14). Only one range is
 * served: a request for several gets the whole response (multipart/byteranges is not implemented), which section
 * 14.2 allows since a server may ignore {@code Range}.
 */
public final class ByteRange {

    /** What to answer. */
    public enum Kind {
        /**
         * 200 with the whole response: no {@code Range}, a malformed one, a unit other than {@code bytes}, several
         * ranges, or an empty representation asked for a suffix.
         */
        FULL,
        /** 206 with {@link Result#start()} to {@link Result#endInclusive()} and {@link ByteRange#contentRange}. */
        PARTIAL,
        /** 416 with {@link ByteRange#unsatisfiedRange}: no listed range overlaps the representation. */
        UNSATISFIABLE
    }

    /**
     * The parsed request; {@code start} and {@code endInclusive} are byte offsets for {@link Kind#PARTIAL}, -1
     * otherwise.
     */
    public record Result(Kind kind, long start, long endInclusive) {

        /** The number of bytes a PARTIAL result covers; 0 otherwise. */
        public long length() {
            return kind == Kind.PARTIAL ? endInclusive - start + 1 : 0;
        }
    }

    /** Serve the whole response. */
    public static final Result FULL = new Result(Kind.FULL, -1, -1);

    private static final Result UNSATISFIABLE = new Result(Kind.UNSATISFIABLE, -1, -1);

    private ByteRange() {
    }

    /**
     * Parses {@code Range} against a representation of {@code length} bytes. Accepts {@code bytes=a-b},
     * {@code bytes=a-} and {@code bytes=-n}, with any whitespace around the parts, the unit in any case, and empty
     * list elements. {@code b} past the end is clipped to the last byte, and a suffix longer than the
     * representation covers all of it (section 14.1.2). Anything not matching that grammar, or a range whose last
     * byte comes before its first, makes the whole header invalid and therefore ignored: FULL.
     */
    public static Result parse(String rangeHeader, long length) {
        if (rangeHeader == null) {
            return FULL;
        }
        String s = rangeHeader;
        int n = s.length();
        int i = FieldSyntax.skipOws(s, 0);
        int equals = s.indexOf('=', i);
        if (equals < 0 || FieldSyntax.trimEnd(s, i, equals) - i != 5 || !s.regionMatches(true, i, "bytes", 0, 5)) {
            return FULL;
        }
        i = equals + 1;
        int ranges = 0;
        Result satisfiable = null;
        while (i < n) {
            i = FieldSyntax.skipOws(s, i);
            if (i >= n) {
                break;
            }
            if (s.charAt(i) == ',') {
                i++;
                continue;
            }
            Result range;
            if (s.charAt(i) == '-') {
                int start = FieldSyntax.skipOws(s, i + 1);
                i = digitsEnd(s, start);
                if (i == start) {
                    return FULL;
                }
                range = suffix(number(s, start, i), length);
            } else {
                int firstStart = i;
                i = digitsEnd(s, firstStart);
                if (i == firstStart) {
                    return FULL;
                }
                long first = number(s, firstStart, i);
                i = FieldSyntax.skipOws(s, i);
                if (i >= n || s.charAt(i) != '-') {
                    return FULL;
                }
                int lastStart = FieldSyntax.skipOws(s, i + 1);
                i = digitsEnd(s, lastStart);
                long last = i == lastStart ? -1 : number(s, lastStart, i);
                if (last >= 0 && last < first) {
                    return FULL;
                }
                range = first >= length ? UNSATISFIABLE
                        : new Result(Kind.PARTIAL, first, last < 0 ? length - 1 : Math.min(last, length - 1));
            }
            i = FieldSyntax.skipOws(s, i);
            if (i < n && s.charAt(i) != ',') {
                return FULL;
            }
            ranges++;
            if (range != UNSATISFIABLE) {
                satisfiable = range;
            }
        }
        if (ranges == 0) {
            return FULL;
        }
        if (satisfiable == null) {
            return UNSATISFIABLE;
        }
        return ranges == 1 ? satisfiable : FULL;
    }

    /** The {@code Content-Range} of a 206: {@code bytes start-end/length}. */
    public static String contentRange(long start, long end, long length) {
        return "bytes " + start + '-' + end + '/' + length;
    }

    /** The {@code Content-Range} of a 416: {@code bytes *}{@code /length}. */
    public static String unsatisfiedRange(long length) {
        return "bytes */" + length;
    }

    /**
     * A suffix range: {@code -0} is unsatisfiable, while any other suffix of an empty representation is
     * satisfiable in the grammar's sense (section 14.1.1) but has no bytes to send, so it gets the (empty) whole.
     */
    private static Result suffix(long suffixLength, long length) {
        if (suffixLength == 0) {
            return UNSATISFIABLE;
        }
        if (length == 0) {
            return FULL;
        }
        return new Result(Kind.PARTIAL, Math.max(0, length - suffixLength), length - 1);
    }

    /** Where the run of ASCII digits starting at {@code i} ends (the range parsers of files reuse this). */
    public static int digitsEnd(String s, int i) {
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    /** The decimal number in {@code s[start, end)}, saturating at {@link Long#MAX_VALUE}. */
    public static long number(String s, int start, int end) {
        long value = 0;
        for (int i = start; i < end; i++) {
            int digit = s.charAt(i) - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return Long.MAX_VALUE;
            }
            value = value * 10 + digit;
        }
        return value;
    }

}
