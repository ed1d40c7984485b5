package dev.portico.http.conditional;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code Range: bytes=...} with any number of ranges, against a representation of known length (RFC 9110 section
 * 14). The single-range grammar and edge cases are those of {@link dev.portico.http.conditional.ByteRange}, which the
 * cache uses; this adds lists, for {@code multipart/byteranges}. Pure.
 *
 * <p>Ranges that do not overlap the representation are dropped; if none is left the answer is 416. Overlapping or
 * adjacent ranges are merged (section 14.6 allows it), so a request cannot make the same bytes be sent many times;
 * otherwise the ranges keep the order they were asked in. More than {@code maxRanges} ranges, like any malformed
 * header, make the server ignore {@code Range} and send the whole representation, as section 14.2 allows.
 */
public final class ByteRanges {

    /** What to answer. */
    public enum Kind {
        /** 200 with the whole representation. */
        FULL,
        /** 206 with {@link Result#ranges()}: one range as a plain body, several as multipart/byteranges. */
        PARTIAL,
        /** 416 with {@code Content-Range: bytes *}{@code /length}. */
        UNSATISFIABLE
    }

    /** An inclusive byte range. */
    public record Range(long start, long end) {

        public long length() {
            return end - start + 1;
        }
    }

    /** The parse; {@code ranges} is empty unless PARTIAL. */
    public record Result(Kind kind, List<Range> ranges) {
    }

    private static final Result FULL = new Result(Kind.FULL, List.of());
    private static final Result UNSATISFIABLE = new Result(Kind.UNSATISFIABLE, List.of());

    private ByteRanges() {
    }

    public static Result parse(String header, long length, int maxRanges) {
        if (header == null) {
            return FULL;
        }
        String s = header;
        int n = s.length();
        int i = skipOws(s, 0);
        int equals = s.indexOf('=', i);
        if (equals < 0 || trimEnd(s, i, equals) - i != 5 || !s.regionMatches(true, i, "bytes", 0, 5)) {
            return FULL;
        }
        i = equals + 1;
        int listed = 0;
        List<Range> satisfiable = new ArrayList<>(2);
        while (i < n) {
            i = skipOws(s, i);
            if (i >= n) {
                break;
            }
            if (s.charAt(i) == ',') {
                i++;
                continue;
            }
            Range range;
            if (s.charAt(i) == '-') {
                int start = skipOws(s, i + 1);
                i = ByteRange.digitsEnd(s, start);
                if (i == start) {
                    return FULL;
                }
                long suffix = ByteRange.number(s, start, i);
                if (suffix > 0 && length == 0) {
                    // Satisfiable in the grammar's sense but without a byte to send: the (empty) whole.
                    return FULL;
                }
                range = suffix == 0 ? null : new Range(Math.max(0, length - suffix), length - 1);
            } else {
                int firstStart = i;
                i = ByteRange.digitsEnd(s, firstStart);
                if (i == firstStart) {
                    return FULL;
                }
                long first = ByteRange.number(s, firstStart, i);
                i = skipOws(s, i);
                if (i >= n || s.charAt(i) != '-') {
                    return FULL;
                }
                int lastStart = skipOws(s, i + 1);
                i = ByteRange.digitsEnd(s, lastStart);
                long last = i == lastStart ? -1 : ByteRange.number(s, lastStart, i);
                if (last >= 0 && last < first) {
                    return FULL;
                }
                range = first >= length ? null : new Range(first, last < 0 ? length - 1 : Math.min(last, length - 1));
            }
            i = skipOws(s, i);
            if (i < n && s.charAt(i) != ',') {
                return FULL;
            }
            if (++listed > maxRanges) {
                return FULL;
            }
            if (range != null) {
                satisfiable.add(range);
            }
        }
        if (listed == 0) {
            return FULL;
        }
        if (satisfiable.isEmpty()) {
            return UNSATISFIABLE;
        }
        return new Result(Kind.PARTIAL, coalesced(satisfiable));
    }

    /** The {@code Content-Range} of a 206 or of one part: {@code bytes start-end/length}. */
    public static String contentRange(Range range, long length) {
        return "bytes " + range.start() + '-' + range.end() + '/' + length;
    }

    /** The {@code Content-Range} of a 416. */
    public static String unsatisfied(long length) {
        return "bytes */" + length;
    }

    /** The ranges as asked when none overlaps or touches another, else sorted and merged. */
    static List<Range> coalesced(List<Range> ranges) {
        if (ranges.size() == 1) {
            return List.of(ranges.get(0));
        }
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(Range::start));
        boolean touching = false;
        for (int k = 1; k < sorted.size() && !touching; k++) {
            touching = sorted.get(k).start() <= sorted.get(k - 1).end() + 1;
        }
        if (!touching) {
            return List.copyOf(ranges);
        }
        List<Range> merged = new ArrayList<>(sorted.size());
        Range current = sorted.get(0);
        for (int k = 1; k < sorted.size(); k++) {
            Range next = sorted.get(k);
            if (next.start() <= current.end() + 1) {
                current = new Range(current.start(), Math.max(current.end(), next.end()));
            } else {
                merged.add(current);
                current = next;
            }
        }
        merged.add(current);
        return List.copyOf(merged);
    }

    private static int skipOws(String s, int i) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static int trimEnd(String s, int start, int end) {
        while (end > start && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == '\t')) {
            end--;
        }
        return end;
    }
}
