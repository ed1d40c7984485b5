package dev.portico.proxy.cache;

import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Stale responses are validated with the origin (RFC 9111 section 4.3), and clients' own conditional requests are
 * answered from what is stored.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RevalidationTest extends CacheTestSupport {

    private static final String LAST_MODIFIED = httpDate(Instant.now().minus(Duration.ofDays(2)));

    @Test
    void aStaleResponseIsRevalidatedWithItsEntityTag() {
        origin.on("/etag", request -> "\"v1\"".equals(request.getHeader("If-None-Match"))
                ? ScriptedOrigin.Reply.of(304, "", "ETag", "\"v1\"", "Cache-Control", "max-age=0")
                : ScriptedOrigin.Reply.of(200, "etag body", "ETag", "\"v1\"", "Cache-Control", "max-age=0"));
        cachedVhost("etag.test");

        assertCacheStatus(get("etag.test", "/etag"), STORED);
        assertNull(origin.last("/etag").headers().get("If-None-Match"));
        for (int i = 2; i <= 3; i++) {
            Reply reply = get("etag.test", "/etag");
            assertReply(reply, 200, "etag body");
            assertFromCache(reply, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
            assertEquals("\"v1\"", reply.header("ETag"));
            assertEquals("9", reply.header("Content-Length"));
            assertEquals(i, origin.count("/etag"));
            assertEquals("\"v1\"", origin.last("/etag").headers().get("If-None-Match"));
        }
    }

    @Test
    void anOriginErrorDuringRevalidationKeepsTheStoredResponseForTheNextTry() {
        ScriptedOrigin.Reply fresh = ScriptedOrigin.Reply.of(200, "kept body", "ETag", "\"k1\"",
                "Cache-Control", "max-age=0");
        origin.inTurn("/flaky", fresh, ScriptedOrigin.Reply.of(500, "oops"),
                ScriptedOrigin.Reply.of(304, "", "ETag", "\"k1\"", "Cache-Control", "max-age=0"));
        cachedVhost("flaky.test");

        assertCacheStatus(get("flaky.test", "/flaky"), STORED);
        Reply failed = get("flaky.test", "/flaky");
        assertReply(failed, 500, "oops");
        Reply revalidated = get("flaky.test", "/flaky");
        assertReply(revalidated, 200, "kept body");
        assertFromCache(revalidated, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
        assertEquals("\"k1\"", origin.last("/flaky").headers().get("If-None-Match"));
        assertEquals(3, origin.count("/flaky"));
    }

    @Test
    void anInvalidLastModifiedIsNotSentBackAsIfModifiedSince() {
        String utc = LAST_MODIFIED.replace("GMT", "UTC");
        origin.on("/bad-lm", ScriptedOrigin.Reply.of(200, "bad lm", "Last-Modified", utc,
                "Cache-Control", "max-age=0"));
        cachedVhost("bad-lm.test");

        assertCacheStatus(get("bad-lm.test", "/bad-lm"), STORED);
        Reply reply = get("bad-lm.test", "/bad-lm");
        assertReply(reply, 200, "bad lm");
        assertCacheStatus(reply, "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals(2, origin.count("/bad-lm"));
        assertNull(origin.last("/bad-lm").headers().get("If-Modified-Since"));
    }

    @Test
    void aStaleResponseIsRevalidatedWithItsLastModified() {
        origin.on("/lm", request -> LAST_MODIFIED.equals(request.getHeader("If-Modified-Since"))
                ? ScriptedOrigin.Reply.of(304, "", "Cache-Control", "max-age=0")
                : ScriptedOrigin.Reply.of(200, "lm body", "Last-Modified", LAST_MODIFIED,
                        "Cache-Control", "max-age=0"));
        cachedVhost("lm.test");

        get("lm.test", "/lm");
        Reply reply = get("lm.test", "/lm");
        assertReply(reply, 200, "lm body");
        assertFromCache(reply, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
        assertEquals(LAST_MODIFIED, reply.header("Last-Modified"));
        MultiMap seen = origin.last("/lm").headers();
        assertEquals(LAST_MODIFIED, seen.get("If-Modified-Since"));
        assertNull(seen.get("If-None-Match"));
        assertEquals(2, origin.count("/lm"));
    }

    @Test
    void a304UpdatesTheStoredHeaders() {
        origin.on("/update", request -> request.getHeader("If-None-Match") != null
                ? ScriptedOrigin.Reply.of(304, "", "ETag", "\"v1\"", "Cache-Control", "max-age=60",
                        "X-Version", "2")
                : ScriptedOrigin.Reply.of(200, "same body", "ETag", "\"v1\"", "Cache-Control", "max-age=0",
                        "X-Version", "1", "Content-Type", "text/plain"));
        cachedVhost("update.test");

        assertEquals("1", get("update.test", "/update").header("X-Version"));
        Reply revalidated = get("update.test", "/update");
        assertReply(revalidated, 200, "same body");
        assertEquals("2", revalidated.header("X-Version"));
        assertEquals("max-age=60", revalidated.header("Cache-Control"));

        Reply hit = get("update.test", "/update");
        assertReply(hit, 200, "same body");
        assertFromCache(hit, HIT_60);
        assertEquals("2", hit.header("X-Version"));
        assertEquals("max-age=60", hit.header("Cache-Control"));
        assertEquals("text/plain", hit.header("Content-Type"));
        assertEquals("9", hit.header("Content-Length"));
        assertEquals(2, origin.count("/update"));
    }

    @Test
    void a200ReplacesTheStoredResponse() {
        origin.inTurn("/replace",
                ScriptedOrigin.Reply.of(200, "old", "ETag", "\"v1\"", "Cache-Control", "max-age=0"),
                ScriptedOrigin.Reply.of(200, "new", "ETag", "\"v2\"", "Cache-Control", "max-age=60"));
        cachedVhost("replace.test");

        get("replace.test", "/replace");
        Reply replaced = get("replace.test", "/replace");
        assertReply(replaced, 200, "new");
        assertCacheStatus(replaced, "Portico; fwd=stale; fwd-status=200; stored");
        assertEquals("\"v1\"", origin.last("/replace").headers().get("If-None-Match"));

        Reply hit = get("replace.test", "/replace");
        assertReply(hit, 200, "new");
        assertEquals("\"v2\"", hit.header("ETag"));
        assertFromCache(hit, HIT_60);
        assertEquals(2, origin.count("/replace"));
    }

    @Test
    void clientConditionalsAreAnsweredFromTheCache() {
        origin.on("/cond", ScriptedOrigin.Reply.of(200, "cond body", "ETag", "\"v1\"",
                "Last-Modified", LAST_MODIFIED, "Cache-Control", "max-age=60"));
        cachedVhost("cond.test");
        get("cond.test", "/cond");

        for (String tags : new String[]{"\"v1\"", "W/\"v1\"", "\"v0\", \"v1\"", "*"}) {
            Reply notModified = get("cond.test", "/cond", "If-None-Match", tags);
            assertReply(notModified, 304, "");
            assertEquals("\"v1\"", notModified.header("ETag"));
            assertEquals("max-age=60", notModified.header("Cache-Control"));
            assertFromCache(notModified, HIT_60);
        }
        assertReply(get("cond.test", "/cond", "If-None-Match", "\"v0\""), 200, "cond body");

        assertReply(get("cond.test", "/cond", "If-Modified-Since", LAST_MODIFIED), 304, "");
        assertReply(get("cond.test", "/cond", "If-Modified-Since", httpDate(Instant.now())), 304, "");
        assertReply(get("cond.test", "/cond", "If-Modified-Since",
                httpDate(Instant.now().minus(Duration.ofDays(3)))), 200, "cond body");
        assertEquals(1, origin.count("/cond"));
    }

    /** RFC 9111 section 4.3.2: without Last-Modified, If-Modified-Since is compared with Date, else arrival. */
    @Test
    void ifModifiedSinceFallsBackToDateThenToArrival() {
        // A Date a little in the past: the response is still fresh (its age counts from that Date).
        Instant date = Instant.now().minusSeconds(30);
        origin.on("/dated", ScriptedOrigin.Reply.of(200, "dated", "Date", httpDate(date), "Cache-Control",
                "max-age=600"));
        origin.on("/undated", ScriptedOrigin.Reply.of(200, "undated", "Cache-Control", "max-age=60"));
        cachedVhost("ims.test");
        get("ims.test", "/dated");
        get("ims.test", "/undated");

        assertReply(get("ims.test", "/dated", "If-Modified-Since", httpDate(date.plusSeconds(10))), 304, "");
        assertReply(get("ims.test", "/dated", "If-Modified-Since", httpDate(date.minusSeconds(60))), 200, "dated");
        assertReply(get("ims.test", "/undated", "If-Modified-Since", httpDate(Instant.now().plusSeconds(5))), 304,
                "");
        assertReply(get("ims.test", "/undated", "If-Modified-Since",
                httpDate(Instant.now().minus(Duration.ofHours(1)))), 200, "undated");
        // If-Unmodified-Since needs a real modification date: without one it is ignored.
        assertReply(get("ims.test", "/undated", "If-Unmodified-Since",
                httpDate(Instant.now().minus(Duration.ofHours(1)))), 200, "undated");
        assertEquals(1, origin.count("/dated"));
        assertEquals(1, origin.count("/undated"));
    }

    @Test
    void aRevalidatedResponseAnswersTheClientsOwnConditions() {
        origin.on("/mixed", request -> "\"v1\"".equals(request.getHeader("If-None-Match"))
                ? ScriptedOrigin.Reply.of(304, "", "ETag", "\"v1\"", "Cache-Control", "max-age=0")
                : ScriptedOrigin.Reply.of(200, "mixed body", "ETag", "\"v1\"", "Cache-Control", "max-age=0"));
        cachedVhost("mixed.test");
        get("mixed.test", "/mixed");

        // The cache asks with its own validator; the client's, which does not match, still gets the full body.
        Reply other = get("mixed.test", "/mixed", "If-None-Match", "\"v0\"");
        assertReply(other, 200, "mixed body");
        assertEquals("\"v1\"", origin.last("/mixed").headers().get("If-None-Match"));
        Reply matching = get("mixed.test", "/mixed", "If-None-Match", "\"v1\"");
        assertReply(matching, 304, "");
        assertFromCache(matching, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
        assertEquals(3, origin.count("/mixed"));
    }

    @Test
    void aHeadRevalidationNeverReplacesTheStoredBody() {
        AtomicReference<String> cacheControl = new AtomicReference<>("max-age=0");
        origin.on("/head", request -> ScriptedOrigin.Reply.of(200, "full body", "Cache-Control", cacheControl.get(),
                "Content-Type", "text/plain"));
        cachedVhost("headreval.test");

        assertReply(get("headreval.test", "/head"), 200, "full body");
        cacheControl.set("max-age=60");
        Reply head = send(HttpMethod.HEAD, "headreval.test", "/head");
        assertEquals(200, head.status());
        assertEquals(0, head.body().length());
        assertCacheStatus(head, "Portico; fwd=stale; fwd-status=200; detail=method");
        assertEquals(1, origin.count("HEAD", "/head"));

        Reply next = get("headreval.test", "/head");
        assertReply(next, 200, "full body");
        assertEquals("9", next.header("Content-Length"));
    }
}
