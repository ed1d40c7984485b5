package dev.portico.cache.rules;

import dev.portico.cache.rules.CacheStatus.Fwd;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CacheStatusTest {

    @Test
    void buildsTheMembersTheCacheStageSends() {
        assertEquals("Portico; hit; ttl=42", CacheStatus.hit().ttl(42).value());
        assertEquals("Portico; fwd=miss; stored", CacheStatus.forward(Fwd.MISS).stored().value());
        assertEquals("Portico; fwd=miss; detail=no-store", CacheStatus.forward(Fwd.MISS).detail("no-store").value());
        assertEquals("Portico; fwd=stale; fwd-status=304; stored",
                CacheStatus.forward(Fwd.STALE).stored().fwdStatus(304).value());
        assertEquals("Portico; hit; detail=stale-while-revalidate",
                CacheStatus.hit().detail("stale-while-revalidate").value());
        assertEquals("Portico; hit; collapsed", CacheStatus.hit().collapsed().value());
        assertEquals("Portico; fwd=uri-miss", CacheStatus.forward(Fwd.URI_MISS).value());
        assertEquals("Portico; fwd=vary-miss", CacheStatus.forward(Fwd.VARY_MISS).value());
        assertEquals("Portico; fwd=request; detail=no-cache",
                CacheStatus.forward(Fwd.REQUEST).detail("no-cache").value());
        assertEquals("Portico; fwd=bypass", CacheStatus.forward(Fwd.BYPASS).toString());
        assertEquals("Portico; hit; detail=stale-if-error", CacheStatus.hit().detail("stale-if-error").value());
        assertEquals("Portico; fwd=method", CacheStatus.forward(Fwd.METHOD).value());
        assertEquals("Portico; fwd=partial", CacheStatus.forward(Fwd.PARTIAL).value());
    }

    @Test
    void parametersKeepAFixedOrder() {
        assertEquals("Portico; fwd=stale; fwd-status=200; ttl=60; stored; collapsed; detail=x",
                CacheStatus.forward(Fwd.STALE).detail("x").collapsed().stored().ttl(60).fwdStatus(200).value());
    }

    @Test
    void ttlIsWholeSecondsAndNegativeWhenStale() {
        assertEquals("Portico; hit; ttl=-5; detail=stale-if-error",
                CacheStatus.hit().ttl(-5).detail("stale-if-error").value());
        assertEquals("Portico; hit; ttl=41", CacheStatus.hit().ttlMillis(41_999).value());
        assertEquals("Portico; hit; ttl=0", CacheStatus.hit().ttlMillis(999).value());
        assertEquals("Portico; hit; ttl=0", CacheStatus.hit().ttlMillis(0).value());
        assertEquals("Portico; hit; ttl=-1", CacheStatus.hit().ttlMillis(-1).value());
        assertEquals("Portico; hit; ttl=-1", CacheStatus.hit().ttlMillis(-1_000).value());
        assertEquals("Portico; hit; ttl=-2", CacheStatus.hit().ttlMillis(-1_001).value());
    }

    @Test
    void buildersAreImmutable() {
        CacheStatus miss = CacheStatus.forward(Fwd.MISS);
        miss.stored();
        miss.detail("x");
        assertEquals("Portico; fwd=miss", miss.value());
        CacheStatus.hit().ttl(5);
        assertEquals("Portico; hit", CacheStatus.hit().value());
    }

    @Test
    void detailsThatAreNotTokensBecomeStrings() {
        assertEquals("Portico; hit; detail=a:b/c*d", CacheStatus.hit().detail("a:b/c*d").value());
        assertEquals("Portico; hit; detail=*x", CacheStatus.hit().detail("*x").value());
        assertEquals("Portico; hit; detail=\"two words\"", CacheStatus.hit().detail("two words").value());
        assertEquals("Portico; hit; detail=\"1st\"", CacheStatus.hit().detail("1st").value());
        assertEquals("Portico; hit; detail=\"a\\\"b\\\\c\"", CacheStatus.hit().detail("a\"b\\c").value());
        assertEquals("Portico; hit; detail=\"caf? ?\"", CacheStatus.hit().detail("caf\u00e9 \n").value());
        assertEquals("Portico; hit; detail=\"\"", CacheStatus.hit().detail("").value());
        assertEquals("Portico; hit; detail=\"a,b;c=d\"", CacheStatus.hit().detail("a,b;c=d").value());
    }

    @Test
    void forwardNeedsAReason() {
        assertThrows(IllegalArgumentException.class, () -> CacheStatus.forward(null));
        assertEquals("uri-miss", Fwd.URI_MISS.token());
    }
}
