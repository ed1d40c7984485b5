package dev.portico.cache.rules;

import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CacheControlTest {

    private static CacheControl parse(String... values) {
        return CacheControl.parse(Arrays.asList(values));
    }

    @Test
    void readsEveryFlagDirective() {
        CacheControl cc = parse("no-store, no-cache, private, public, must-revalidate, proxy-revalidate, "
                + "no-transform, must-understand, immutable, only-if-cached");
        assertTrue(cc.noStore());
        assertTrue(cc.noCache());
        assertTrue(cc.isPrivate());
        assertTrue(cc.isPublic());
        assertTrue(cc.mustRevalidate());
        assertTrue(cc.proxyRevalidate());
        assertTrue(cc.noTransform());
        assertTrue(cc.mustUnderstand());
        assertTrue(cc.immutable());
        assertTrue(cc.onlyIfCached());
        assertEquals(-1, cc.maxAge());
        assertEquals(-1, cc.maxStale());
    }

    @Test
    void readsEveryNumericDirectiveInSeconds() {
        CacheControl cc = parse("max-age=60, s-maxage=30, stale-while-revalidate=15, stale-if-error=600, "
                + "max-stale=5, min-fresh=7");
        assertEquals(new CacheControl(false, false, false, false, false, false, false, false, false, false,
                60, 30, 15, 600, 5, 7), cc);
        assertTrue(cc.hasLifetime());
        assertFalse(parse("public").hasLifetime());
        assertTrue(parse("s-maxage=0").hasLifetime());
    }

    @Test
    void nothingUsableIsNone() {
        assertSame(CacheControl.NONE, CacheControl.parse(null));
        assertSame(CacheControl.NONE, CacheControl.parse(List.of()));
        assertSame(CacheControl.NONE, parse(""));
        assertSame(CacheControl.NONE, parse(" ,, ,\t"));
        assertSame(CacheControl.NONE, parse("garbage, x=\"y\", =60, maxage=5, no_store"));
        assertSame(CacheControl.NONE, CacheControl.parse(Arrays.asList((String) null)));
    }

    @Test
    void namesAreCaseInsensitiveAndSpacesAndEmptyElementsAreSkipped() {
        CacheControl cc = parse("  MAX-AGE = 60 ,,\tNo-Store ,  Public,");
        assertEquals(60, cc.maxAge());
        assertTrue(cc.noStore());
        assertTrue(cc.isPublic());
        assertFalse(cc.isPrivate());
    }

    @Test
    void mergesAllFieldLines() {
        CacheControl cc = parse("max-age=60", "s-maxage=30, must-revalidate", "");
        assertEquals(60, cc.maxAge());
        assertEquals(30, cc.sMaxAge());
        assertTrue(cc.mustRevalidate());
    }

    @Test
    void acceptsQuotedValuesIncludingCommasInside() {
        assertEquals(60, parse("max-age=\"60\"").maxAge());
        CacheControl cc = parse("no-cache=\"Set-Cookie, max-age=5\", public");
        assertTrue(cc.noCache());
        assertTrue(cc.isPublic());
        assertEquals(-1, cc.maxAge());
        assertTrue(parse("private=\"X-Secret\"").isPrivate());
        assertTrue(parse("no-cache=\"a\\\"b\", no-store").noStore());
        assertTrue(parse("no-cache=\"unterminated").noCache());
    }

    @Test
    void invalidOrNegativeLifetimesMeanStale() {
        assertEquals(0, parse("max-age=abc").maxAge());
        assertEquals(0, parse("max-age=-5").maxAge());
        assertEquals(0, parse("max-age").maxAge());
        assertEquals(0, parse("max-age=").maxAge());
        assertEquals(0, parse("s-maxage=1.5").sMaxAge());
        assertEquals(0, parse("s-maxage=+10").sMaxAge());
        assertEquals(60, parse("max-age=60 trailing junk").maxAge());
    }

    @Test
    void conflictingLifetimesTakeTheSmallest() {
        assertEquals(30, parse("max-age=60, max-age=30").maxAge());
        assertEquals(30, parse("max-age=30", "max-age=60").maxAge());
        assertEquals(0, parse("max-age=abc, max-age=60").maxAge());
        assertEquals(5, parse("s-maxage=5, s-maxage=500").sMaxAge());
    }

    @Test
    void hugeNumbersSaturate() {
        assertEquals(2147483648L, parse("max-age=99999999999999999999999999").maxAge());
        assertEquals(2147483648L, parse("max-age=2147483649").maxAge());
        assertEquals(2147483648L, parse("max-age=2147483648").maxAge());
        assertEquals(2147483647L, parse("max-age=2147483647").maxAge());
        assertEquals(2147483648L, parse("stale-if-error=184467440737095516160").staleIfError());
        assertEquals(0, parse("max-age=000").maxAge());
    }

    @Test
    void invalidStaleDirectivesAreIgnoredAndDuplicatesTakeTheStricter() {
        assertEquals(-1, parse("stale-while-revalidate=abc").staleWhileRevalidate());
        assertEquals(30, parse("stale-while-revalidate=abc, stale-while-revalidate=30").staleWhileRevalidate());
        assertEquals(10, parse("stale-while-revalidate=30, stale-while-revalidate=10").staleWhileRevalidate());
        assertEquals(-1, parse("stale-if-error").staleIfError());
        assertEquals(20, parse("stale-if-error=20, stale-if-error=40").staleIfError());
        assertEquals(-1, parse("min-fresh=x").minFresh());
        assertEquals(40, parse("min-fresh=20, min-fresh=40").minFresh());
    }

    @Test
    void maxStaleWithoutValueAcceptsAnyStaleness() {
        assertEquals(Long.MAX_VALUE, parse("max-stale").maxStale());
        assertEquals(10, parse("max-stale=10").maxStale());
        assertEquals(10, parse("max-stale, max-stale=10").maxStale());
        assertEquals(-1, parse("max-stale=abc").maxStale());
        assertEquals(Long.MAX_VALUE, parse("max-stale, max-stale=abc").maxStale());
    }

    @Test
    void requestPragmaNoCacheCountsOnlyWithoutCacheControl() {
        MultiMap pragmaOnly = MultiMap.caseInsensitiveMultiMap().add("Pragma", "foo, No-Cache");
        assertTrue(CacheControl.ofRequest(pragmaOnly).noCache());
        assertFalse(CacheControl.ofRequest(pragmaOnly).noStore());

        MultiMap both = MultiMap.caseInsensitiveMultiMap().add("Pragma", "no-cache").add("Cache-Control", "max-age=5");
        assertFalse(CacheControl.ofRequest(both).noCache());
        assertEquals(5, CacheControl.ofRequest(both).maxAge());

        MultiMap emptyCacheControl = MultiMap.caseInsensitiveMultiMap()
                .add("Pragma", "no-cache").add("Cache-Control", "");
        assertFalse(CacheControl.ofRequest(emptyCacheControl).noCache());

        assertFalse(CacheControl.ofRequest(MultiMap.caseInsensitiveMultiMap().add("Pragma", "no-cache-x")).noCache());
        MultiMap twoPragmas = MultiMap.caseInsensitiveMultiMap().add("pragma", "x").add("PRAGMA", " no-cache ");
        assertTrue(CacheControl.ofRequest(twoPragmas).noCache());
        assertSame(CacheControl.NONE, CacheControl.ofRequest(MultiMap.caseInsensitiveMultiMap()));
    }

    @Test
    void responseDirectivesComeFromAllFieldLines() {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .add("cache-control", "public").add("Cache-Control", "max-age=10").add("Pragma", "no-cache");
        CacheControl cc = CacheControl.ofResponse(headers);
        assertTrue(cc.isPublic());
        assertEquals(10, cc.maxAge());
        assertFalse(cc.noCache());
        MultiMap pragmaOnly = MultiMap.caseInsensitiveMultiMap().add("Pragma", "no-cache");
        assertSame(CacheControl.NONE, CacheControl.ofResponse(pragmaOnly));
    }
}
