package dev.portico.http.conditional;

import dev.portico.http.conditional.ByteRanges.Kind;
import dev.portico.http.conditional.ByteRanges.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Range parsing for files: single, suffix, open, multiple (merged when they overlap), unsatisfiable, ignored. */
class ByteRangesTest {

    private static ByteRanges.Result parse(String header, long length) {
        return ByteRanges.parse(header, length, 32);
    }

    @Test
    void singleSuffixAndOpenRanges() {
        assertEquals(List.of(new Range(0, 9)), parse("bytes=0-9", 100).ranges());
        assertEquals(List.of(new Range(90, 99)), parse("bytes=-10", 100).ranges());
        assertEquals(List.of(new Range(0, 99)), parse("bytes=-1000", 100).ranges());
        assertEquals(List.of(new Range(95, 99)), parse("bytes=95-", 100).ranges());
        assertEquals(List.of(new Range(50, 99)), parse("bytes=50-5000", 100).ranges());
        assertEquals(List.of(new Range(3, 3)), parse(" BYTES = 3 - 3 ", 100).ranges());
    }

    @Test
    void severalRangesKeepTheirOrder() {
        ByteRanges.Result r = parse("bytes=50-59, 0-9,-5", 100);
        assertEquals(Kind.PARTIAL, r.kind());
        assertEquals(List.of(new Range(50, 59), new Range(0, 9), new Range(95, 99)), r.ranges());
    }

    @Test
    void overlappingOrAdjacentRangesAreMerged() {
        assertEquals(List.of(new Range(0, 19)), parse("bytes=10-19,0-9", 100).ranges());
        assertEquals(List.of(new Range(0, 99)), parse("bytes=0-99,0-99,0-99", 100).ranges());
        assertEquals(List.of(new Range(0, 15), new Range(30, 39)), parse("bytes=30-39,0-10,5-15", 100).ranges());
    }

    @Test
    void unsatisfiableRangesAreDroppedAndNoneLeftIs416() {
        assertEquals(List.of(new Range(0, 9)), parse("bytes=200-300,0-9", 100).ranges());
        assertEquals(Kind.UNSATISFIABLE, parse("bytes=100-", 100).kind());
        assertEquals(Kind.UNSATISFIABLE, parse("bytes=200-300, 150-", 100).kind());
        assertEquals(Kind.UNSATISFIABLE, parse("bytes=-0", 100).kind());
        assertEquals(Kind.UNSATISFIABLE, parse("bytes=0-", 0).kind());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bytes", "bytes=", "items=0-1", "bytes=a-b", "bytes=5-1", "bytes=1-2;x", "bytes=--1",
            "bytes=1", "bytes 0-1", "bytes=0-1,5-2"})
    void malformedHeadersAreIgnored(String header) {
        assertEquals(Kind.FULL, parse(header, 100).kind());
    }

    @Test
    void tooManyRangesAreIgnored() {
        StringBuilder many = new StringBuilder("bytes=");
        for (int i = 0; i < 33; i++) {
            many.append(i * 3).append('-').append(i * 3).append(',');
        }
        assertEquals(Kind.FULL, parse(many.toString(), 1000).kind());
        assertEquals(Kind.PARTIAL, ByteRanges.parse(many.toString(), 1000, 33).kind());
    }

    @Test
    void aSuffixOfAnEmptyFileIsTheWholeEmptyFile() {
        assertEquals(Kind.FULL, parse("bytes=-5", 0).kind());
    }

    /** For one range the answer is the cache's, so a file and a cached copy of it behave alike. */
    @ParameterizedTest
    @ValueSource(strings = {"bytes=0-0", "bytes=0-", "bytes=-1", "bytes=99-", "bytes=100-", "bytes=5-2", "bytes=-0",
            "bytes=0-1000", " bytes = 1 - 2 ", "bytes=x", "bytes=,0-1,", "bytes=-200"})
    void agreesWithTheCacheOnSingleRanges(String header) {
        ByteRange.Result single = ByteRange.parse(header, 100);
        ByteRanges.Result multi = parse(header, 100);
        assertEquals(single.kind().name(), multi.kind().name(), header);
        if (single.kind() == ByteRange.Kind.PARTIAL) {
            assertEquals(List.of(new Range(single.start(), single.endInclusive())), multi.ranges());
        }
    }

    @Test
    void contentRangeValues() {
        assertEquals("bytes 0-9/100", ByteRanges.contentRange(new Range(0, 9), 100));
        assertEquals("bytes */100", ByteRanges.unsatisfied(100));
    }
}
