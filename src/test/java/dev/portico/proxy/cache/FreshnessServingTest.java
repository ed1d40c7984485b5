package dev.portico.proxy.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How long a stored response stays fresh (RFC 9111 section 4.2), and what happens when it no longer is. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class FreshnessServingTest extends CacheTestSupport {

    @Test
    void maxAgeKeepsAResponseFresh() {
        origin.on("/a", ScriptedOrigin.Reply.of(200, "fresh", "Cache-Control", "max-age=60"));
        cachedVhost("fresh.test");

        Reply first = get("fresh.test", "/a");
        assertReply(first, 200, "fresh");
        assertCacheStatus(first, STORED);
        for (int i = 0; i < 3; i++) {
            Reply hit = get("fresh.test", "/a");
            assertReply(hit, 200, "fresh");
            assertFromCache(hit, HIT_60);
            assertEquals("0", hit.header("Age"));
            assertEquals("max-age=60", hit.header("Cache-Control"));
        }
        assertEquals(1, origin.count("/a"));
    }

    @Test
    void sMaxAgeOverridesMaxAgeForASharedCache() {
        origin.on("/longer", ScriptedOrigin.Reply.of(200, "longer", "Cache-Control", "max-age=0, s-maxage=60"))
                .on("/shorter", ScriptedOrigin.Reply.of(200, "shorter", "Cache-Control", "max-age=60, s-maxage=0"));
        cachedVhost("smaxage.test");

        get("smaxage.test", "/longer");
        assertFromCache(get("smaxage.test", "/longer"), HIT_60);
        assertEquals(1, origin.count("/longer"));

        assertCacheStatus(get("smaxage.test", "/shorter"), STORED);
        Reply again = get("smaxage.test", "/shorter");
        assertReply(again, 200, "shorter");
        assertCacheStatus(again, "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/shorter"));
    }

    @Test
    void expiresMinusDateIsTheLifetime() {
        origin.on("/expires", request -> {
            Instant now = Instant.now();
            return ScriptedOrigin.Reply.of(200, "expires", "Date", httpDate(now),
                    "Expires", httpDate(now.plusSeconds(60)));
        });
        origin.on("/expired", request -> {
            Instant now = Instant.now();
            return ScriptedOrigin.Reply.of(200, "expired", "Date", httpDate(now),
                    "Expires", httpDate(now.minusSeconds(60)));
        });
        cachedVhost("expires.test");

        assertCacheStatus(get("expires.test", "/expires"), STORED);
        Reply hit = get("expires.test", "/expires");
        assertReply(hit, 200, "expires");
        assertFromCache(hit, "Portico; hit; ttl=(58|59|60)");
        assertEquals(1, origin.count("/expires"));

        // An Expires before Date: stored (it is explicit freshness information) but stale from the start.
        assertCacheStatus(get("expires.test", "/expired"), STORED);
        assertCacheStatus(get("expires.test", "/expired"), "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/expired"));
    }

    @Test
    void anExpiresThatIsNotExactlyAnHttpDateIsStoredAsAlreadyExpired() {
        // An hour ahead, but in UTC rather than GMT: RFC 9111 section 5.3 makes an invalid Expires a past one.
        origin.on("/utc", request -> {
            Instant now = Instant.now();
            return ScriptedOrigin.Reply.of(200, "utc", "Date", httpDate(now),
                    "Expires", httpDate(now.plusSeconds(3600)).replace("GMT", "UTC"));
        });
        origin.on("/gmt", request -> {
            Instant now = Instant.now();
            return ScriptedOrigin.Reply.of(200, "gmt", "Date", httpDate(now),
                    "Expires", httpDate(now.plusSeconds(3600)));
        });
        cachedVhost("invalid-expires.test");

        assertCacheStatus(get("invalid-expires.test", "/utc"), STORED);
        Reply again = get("invalid-expires.test", "/utc");
        assertReply(again, 200, "utc");
        assertCacheStatus(again, "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/utc"));

        get("invalid-expires.test", "/gmt");
        assertFromCache(get("invalid-expires.test", "/gmt"), "Portico; hit; ttl=(3598|3599|3600)");
        assertEquals(1, origin.count("/gmt"));
    }

    @Test
    void anAgeListCountsAsItsFirstMember() {
        // Two hours old by the nearest cache's count: stale on arrival for a one-hour lifetime.
        origin.on("/listed", ScriptedOrigin.Reply.of(200, "listed", "Cache-Control", "max-age=3600",
                "Age", "7200, 0"));
        origin.on("/young", ScriptedOrigin.Reply.of(200, "young", "Cache-Control", "max-age=3600",
                "Age", "600, 7200"));
        cachedVhost("age-list.test");

        assertCacheStatus(get("age-list.test", "/listed"), STORED);
        Reply again = get("age-list.test", "/listed");
        assertReply(again, 200, "listed");
        assertCacheStatus(again, "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/listed"));

        get("age-list.test", "/young");
        Reply hit = get("age-list.test", "/young");
        assertFromCache(hit, "Portico; hit; ttl=(2998|2999|3000)");
        assertTrue(hit.header("Age").matches("60[01]"), hit.header("Age"));
        assertEquals(1, origin.count("/young"));
    }

    @Test
    void anIncomingAgeUsesUpPartOfTheLifetime() {
        origin.on("/aged", ScriptedOrigin.Reply.of(200, "aged", "Cache-Control", "max-age=60", "Age", "50"))
                .on("/old", ScriptedOrigin.Reply.of(200, "old", "Cache-Control", "max-age=60", "Age", "60"));
        cachedVhost("age.test");

        get("age.test", "/aged");
        Reply hit = get("age.test", "/aged");
        assertReply(hit, 200, "aged");
        assertFromCache(hit, "Portico; hit; ttl=(9|10)");
        assertEquals("50", hit.header("Age"));
        assertEquals(1, origin.count("/aged"));

        // Already as old as its lifetime when it arrived: stored, but stale at once.
        get("age.test", "/old");
        assertCacheStatus(get("age.test", "/old"), "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/old"));
    }

    @Test
    void anExpiredResponseIsFetchedAgain() {
        origin.inTurn("/short",
                ScriptedOrigin.Reply.of(200, "one", "Cache-Control", "max-age=1"),
                ScriptedOrigin.Reply.of(200, "two", "Cache-Control", "max-age=60"));
        cachedVhost("expiry.test");

        assertReply(get("expiry.test", "/short"), 200, "one");
        Reply hit = get("expiry.test", "/short");
        assertReply(hit, 200, "one");
        assertFromCache(hit, "Portico; hit; ttl=(0|1)");
        // Until max-age=1 has passed every request is a hit on "one" (the origin count below proves it); the first
        // reply after it is the refetched "two".
        Reply refetched = Eventually.value(Duration.ofSeconds(5), () -> get("expiry.test", "/short"),
                r -> !"one".equals(r.text()));
        assertReply(refetched, 200, "two");
        assertCacheStatus(refetched, "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/short"));
        Reply newHit = get("expiry.test", "/short");
        assertReply(newHit, 200, "two");
        assertFromCache(newHit, HIT_60);
        assertEquals(2, origin.count("/short"));
    }

    @Test
    void heuristicFreshnessIsTenPercentOfTheAgeSinceLastModifiedCappedAtTheDefaultTtl() {
        Instant now = Instant.now();
        origin.on("/year-old", request -> ScriptedOrigin.Reply.of(200, "year-old", "Date", httpDate(Instant.now()),
                        "Last-Modified", httpDate(now.minus(Duration.ofDays(365)))))
                .on("/recent", request -> ScriptedOrigin.Reply.of(200, "recent", "Date", httpDate(Instant.now()),
                        "Last-Modified", httpDate(Instant.now().minusSeconds(300))))
                .on("/undated", ScriptedOrigin.Reply.of(200, "undated"));
        cachedVhost("heuristic.test", cache("defaultTtl", "1h"));

        get("heuristic.test", "/year-old");
        assertFromCache(get("heuristic.test", "/year-old"), "Portico; hit; ttl=(3598|3599|3600)");
        get("heuristic.test", "/recent");
        assertFromCache(get("heuristic.test", "/recent"), "Portico; hit; ttl=(28|29|30)");
        get("heuristic.test", "/undated");
        assertFromCache(get("heuristic.test", "/undated"), "Portico; hit; ttl=(3599|3600)");
        assertEquals(1, origin.count("/year-old"));
        assertEquals(1, origin.count("/recent"));
        assertEquals(1, origin.count("/undated"));
    }

    @Test
    void heuristicFreshnessOnlyForStatusesCacheableByDefault() {
        origin.on("/found", ScriptedOrigin.Reply.of(302, "", "Location", "/elsewhere"))
                .on("/error", ScriptedOrigin.Reply.of(500, "error"));
        cachedVhost("heuristic-status.test", cache("defaultTtl", "1h"));

        for (int i = 0; i < 2; i++) {
            Reply found = get("heuristic-status.test", "/found");
            assertEquals(302, found.status());
            assertCacheStatus(found, "Portico; fwd=miss; detail=no-freshness");
            Reply error = get("heuristic-status.test", "/error");
            assertReply(error, 500, "error");
            assertCacheStatus(error, "Portico; fwd=miss; detail=no-freshness");
        }
        assertEquals(2, origin.count("/found"));
        assertEquals(2, origin.count("/error"));
    }

    @Test
    void withoutFreshnessInformationNothingIsStoredWhenTheDefaultTtlIsZero() {
        origin.on("/plain", request -> ScriptedOrigin.Reply.of(200, "plain", "Date", httpDate(Instant.now()),
                "Last-Modified", httpDate(Instant.now().minus(Duration.ofDays(30)))));
        String id = cachedVhost("no-heuristic.test");

        for (int i = 0; i < 2; i++) {
            Reply reply = get("no-heuristic.test", "/plain");
            assertReply(reply, 200, "plain");
            assertCacheStatus(reply, "Portico; fwd=miss; detail=no-freshness");
        }
        assertEquals(2, origin.count("/plain"));
        Api.given().get("/api/v1/vhosts/" + id + "/cache").then().statusCode(200).body("entries", equalTo(0));
    }
}
