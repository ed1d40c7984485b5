package dev.portico.http.conditional;

import dev.portico.http.conditional.ByteRange.Kind;
import dev.portico.http.conditional.ByteRange.Result;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ByteRangeTest {

    private static final Result UNSATISFIABLE = new Result(Kind.UNSATISFIABLE, -1, -1);

    private static Result partial(long start, long end) {
        return new Result(Kind.PARTIAL, start, end);
    }

    @Test
    void readsTheThreeFormsOfASingleRange() {
        assertEquals(partial(0, 99), ByteRange.parse("bytes=0-99", 1000));
        assertEquals(100, ByteRange.parse("bytes=0-99", 1000).length());
        assertEquals(partial(500, 999), ByteRange.parse("bytes=500-", 1000));
        assertEquals(partial(900, 999), ByteRange.parse("bytes=-100", 1000));
        assertEquals(partial(999, 999), ByteRange.parse("bytes=999-999", 1000));
        assertEquals(partial(999, 999), ByteRange.parse("bytes=-1", 1000));
    }

    @Test
    void clipsRangesThatRunPastTheEnd() {
        assertEquals(partial(0, 999), ByteRange.parse("bytes=0-5000", 1000));
        assertEquals(partial(0, 999), ByteRange.parse("bytes=-2000", 1000));
        assertEquals(partial(0, 999), ByteRange.parse("bytes=0-99999999999999999999999999", 1000));
    }

    @Test
    void toleratesWhitespaceCaseAndEmptyElements() {
        assertEquals(partial(0, 99), ByteRange.parse("  bytes = 0 - 99  ", 1000));
        assertEquals(partial(0, 1), ByteRange.parse("BYTES=0-1", 1000));
        assertEquals(partial(10, 999), ByteRange.parse("Bytes=\t10-", 1000));
        assertEquals(partial(900, 999), ByteRange.parse("bytes= - 100", 1000));
        assertEquals(partial(0, 1), ByteRange.parse("bytes=, 0-1 ,,", 1000));
    }

    @Test
    void malformedOrForeignRangesServeTheWholeResponse() {
        assertEquals(ByteRange.FULL, ByteRange.parse(null, 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes= , ,", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes 0-1", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("items=0-1", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytesx=0-1", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=abc", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=5", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=-", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=--5", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=1-2x", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=1-2 3", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=+1-2", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=5-1", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=0-1, 5-1", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=2000-, nonsense", 1000));
        assertEquals(-1, ByteRange.FULL.start());
        assertEquals(0, ByteRange.FULL.length());
    }

    @Test
    void severalRangesServeTheWholeResponseUnlessNoneIsSatisfiable() {
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=0-1,2-3", 1000));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=1000-, 0-1", 1000));
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=1000-, 2000-3000, -0", 1000));
    }

    @Test
    void rangesBeyondTheEndAreUnsatisfiable() {
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=1000-", 1000));
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=1000-2000", 1000));
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=-0", 1000));
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=99999999999999999999999-", 1000));
        assertEquals(0, UNSATISFIABLE.length());
    }

    @Test
    void anEmptyRepresentationHasNoBytesToRange() {
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=0-", 0));
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=0-0", 0));
        assertEquals(ByteRange.FULL, ByteRange.parse("bytes=-5", 0));
        assertEquals(UNSATISFIABLE, ByteRange.parse("bytes=-0", 0));
    }

    @Test
    void formatsContentRange() {
        assertEquals("bytes 0-99/1000", ByteRange.contentRange(0, 99, 1000));
        assertEquals("bytes 999-999/1000", ByteRange.contentRange(999, 999, 1000));
        assertEquals("bytes */1000", ByteRange.unsatisfiedRange(1000));
        assertEquals("bytes */0", ByteRange.unsatisfiedRange(0));
    }
}
