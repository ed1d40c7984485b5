package dev.portico.proxy.core;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The response body phase: filters run innermost first (what a cache outside a compressor keeps is what the client
 * gets), a filter that ends the body with a piece ends it for the filters after it, and a body ends or breaks once.
 */
class ResponseBodyFiltersTest {

    /** Upper-cases its pieces and appends a trailer at the end; ends early after {@code endAfter} pieces if > 0. */
    private static final class Shouting implements BodyFilter {
        final List<String> calls = new ArrayList<>();
        final int endAfter;
        int pieces;

        Shouting(int endAfter) {
            this.endAfter = endAfter;
        }

        @Override
        public Buffer piece(Buffer piece) {
            calls.add("piece " + piece);
            pieces++;
            String out = piece.toString().toUpperCase();
            return Buffer.buffer(endAfter > 0 && pieces == endAfter ? out + "|END" : out);
        }

        @Override
        public Buffer end() {
            calls.add("end");
            return Buffer.buffer("|END");
        }

        @Override
        public boolean ended() {
            return endAfter > 0 && pieces == endAfter;
        }

        @Override
        public void broken() {
            calls.add("broken");
        }
    }

    /** Keeps what passes, like a cache fill. */
    private static final class Keeping implements BodyFilter {
        final StringBuilder kept = new StringBuilder();
        final List<String> calls = new ArrayList<>();
        int pieces;

        @Override
        public Buffer piece(Buffer piece) {
            pieces++;
            kept.append(piece);
            return piece;
        }

        @Override
        public Buffer end() {
            calls.add("end with " + kept);
            return EMPTY;
        }

        @Override
        public void broken() {
            calls.add("broken");
        }

        @Override
        public boolean wantsRestWithoutClient() {
            return true;
        }
    }

    @Test
    void theOuterFilterSeesWhatTheInnerOneMadeAndItsEndBeforeTheClientDoes() {
        Shouting inner = new Shouting(0);
        Keeping outer = new Keeping();
        ResponseBodyFilters filters = new ResponseBodyFilters(new BodyFilter[] {inner, outer});

        assertEquals("AB", filters.piece(Buffer.buffer("ab")).toString());
        assertEquals("C", filters.piece(Buffer.buffer("c")).toString());
        assertEquals("|END", filters.end().toString());

        assertEquals("ABC|END", outer.kept.toString());
        assertEquals(List.of("end with ABC|END"), outer.calls);
        filters.broken();
        assertEquals(List.of("end with ABC|END"), outer.calls, "an ended body cannot break");
        assertEquals(List.of("piece ab", "piece c", "end"), inner.calls);
    }

    @Test
    void aFilterThatEndsTheBodyWithAPieceEndsItForTheFiltersAfterIt() {
        Shouting inner = new Shouting(2);
        Keeping outer = new Keeping();
        ResponseBodyFilters filters = new ResponseBodyFilters(new BodyFilter[] {inner, outer});

        assertEquals("A", filters.piece(Buffer.buffer("a")).toString());
        assertFalse(filters.ended());
        assertEquals("B|END", filters.piece(Buffer.buffer("b")).toString());

        assertTrue(filters.ended());
        assertEquals(List.of("end with AB|END"), outer.calls, "the outer filter's end comes with the last piece");
        assertEquals(0, filters.end().length(), "nothing more once ended");
        assertEquals(List.of("piece a", "piece b"), inner.calls, "the filter that ended is not asked to end again");
    }

    @Test
    void aBrokenBodyIsToldToEveryFilterOnceAndNeverEnds() {
        Shouting inner = new Shouting(0);
        Keeping outer = new Keeping();
        ResponseBodyFilters filters = new ResponseBodyFilters(new BodyFilter[] {inner, outer});
        filters.piece(Buffer.buffer("x"));

        filters.broken();
        filters.broken();

        assertEquals(List.of("piece x", "broken"), inner.calls);
        assertEquals(List.of("broken"), outer.calls);
        assertEquals(0, filters.end().length());
        assertTrue(filters.wantsRestWithoutClient(), "one filter that still needs the body is enough");
    }

    @Test
    void aFilterThatFailsToEndBreaksTheFiltersAfterIt() {
        BodyFilter failing = new BodyFilter() {
            @Override
            public Buffer piece(Buffer piece) {
                return piece;
            }

            @Override
            public Buffer end() {
                throw new IllegalStateException("codec failed");
            }
        };
        Keeping outer = new Keeping();
        ResponseBodyFilters filters = new ResponseBodyFilters(new BodyFilter[] {failing, outer});
        filters.piece(Buffer.buffer("x"));

        assertThrows(IllegalStateException.class, filters::end);

        assertEquals(List.of("broken"), outer.calls, "the fill after a failed codec lets its waiters go");
    }

    @Test
    void aPieceAFilterHoldsBackReachesNoFilterAfterIt() {
        BodyFilter holding = piece -> BodyFilter.EMPTY;
        Keeping outer = new Keeping();
        ResponseBodyFilters filters = new ResponseBodyFilters(new BodyFilter[] {holding, outer});

        assertEquals(0, filters.piece(Buffer.buffer("x")).length());

        assertEquals(0, outer.pieces, "an empty piece is not handed on");
    }
}
