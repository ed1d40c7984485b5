package dev.portico.cache.rules;

import dev.portico.http.syntax.FieldSyntax;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TargetedCacheControlTest {

    private static CacheControl parse(String... lines) {
        return TargetedCacheControl.parse(Arrays.asList(lines));
    }

    @Test
    void readsTheResponseDirectives() {
        CacheControl cc = parse("max-age=60, s-maxage=30, stale-while-revalidate=15, stale-if-error=600, "
                + "no-store, no-cache, private, public, must-revalidate, proxy-revalidate, no-transform, "
                + "must-understand, immutable");
        assertEquals(60, cc.maxAge());
        assertEquals(30, cc.sMaxAge());
        assertEquals(15, cc.staleWhileRevalidate());
        assertEquals(600, cc.staleIfError());
        assertTrue(cc.noStore());
        assertTrue(cc.noCache());
        assertTrue(cc.isPrivate());
        assertTrue(cc.isPublic());
        assertTrue(cc.mustRevalidate());
        assertTrue(cc.proxyRevalidate());
        assertTrue(cc.noTransform());
        assertTrue(cc.mustUnderstand());
        assertTrue(cc.immutable());
    }

    @Test
    void qualifiedNoCacheAndPrivateCountAsUnqualified() {
        assertTrue(parse("no-cache=\"Set-Cookie\"").noCache());
        assertTrue(parse("private=\"X-User, X-Id\"").isPrivate());
    }

    @Test
    void unknownAndRequestDirectivesParametersAndLastDuplicatesFollowTheDictionary() {
        CacheControl cc = parse("max-age=60;foo=bar, only-if-cached, max-stale=5, min-fresh=1, x-custom=\"any\", "
                + "y=(1 2), z=1.5");
        assertEquals(60, cc.maxAge());
        assertFalse(cc.onlyIfCached());
        assertEquals(-1, cc.maxStale());
        assertEquals(-1, cc.minFresh());
        assertEquals(20, parse("max-age=10, max-age=20").maxAge());
        assertEquals(20, parse("max-age=10", "max-age=20").maxAge());
        assertEquals(FieldSyntax.MAX_DELTA_SECONDS, parse("max-age=999999999999999").maxAge());
    }

    @Test
    void noneIsAFieldWithoutDirectives() {
        CacheControl none = parse("none");
        assertNotNull(none);
        assertEquals(CacheControl.NONE, none);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // Not a Dictionary.
            "max-age=10000, &&&&&",
            "Max-Age=60",
            "max-age=60,",
            "max-age=60 public",
            "",
            "  ",
            // A known directive with a value of the wrong type.
            "max-age=\"10000\"",
            "max-age=1.5",
            "max-age=-1",
            "max-age=?1",
            "max-age",
            "max-age=ten",
            "max-age=(60)",
            "s-maxage=\"60\"",
            "stale-while-revalidate=1.0",
            "stale-if-error=:AAAA:",
            "no-store=?0",
            "no-store=1",
            "public=\"yes\"",
            "must-revalidate=true",
            "no-cache=Set-Cookie",
            "private=1",
            "max-age=60, immutable=?0",
    })
    void anUnusableFieldIsIgnoredAsAWhole(String value) {
        assertNull(parse(value), value);
    }

    @Test
    void absentIsIgnored() {
        assertNull(TargetedCacheControl.parse(List.of()));
        assertNull(TargetedCacheControl.parse(null));
    }
}
