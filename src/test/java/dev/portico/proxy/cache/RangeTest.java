package dev.portico.proxy.cache;

import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Single byte ranges served from complete stored responses (RFC 9110 section 14). */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RangeTest extends CacheTestSupport {

    private static final String BODY = "abcdefghijklmnopqrstuvwxyz";
    private static final String LAST_MODIFIED = httpDate(Instant.now().minus(Duration.ofDays(1)));

    @BeforeEach
    void storeTheAlphabet() {
        origin.on("/abc", ScriptedOrigin.Reply.of(200, BODY, "Cache-Control", "max-age=60", "ETag", "\"r1\"",
                "Last-Modified", LAST_MODIFIED, "Content-Type", "text/plain"));
        cachedVhost("range.test");
        assertCacheStatus(get("range.test", "/abc"), STORED);
    }

    @ParameterizedTest
    @CsvSource({
            "bytes=0-9, 'bytes 0-9/26', abcdefghij",
            "bytes=-5, 'bytes 21-25/26', vwxyz",
            "bytes=10-, 'bytes 10-25/26', klmnopqrstuvwxyz",
            "bytes=20-99, 'bytes 20-25/26', uvwxyz",
            "bytes=0-0, 'bytes 0-0/26', a"})
    void aSatisfiableRangeGetsPartialContent(String range, String contentRange, String bytes) {
        Reply partial = get("range.test", "/abc", "Range", range);
        assertReply(partial, 206, bytes);
        assertEquals(contentRange, partial.header("Content-Range"));
        assertEquals(Integer.toString(bytes.length()), partial.header("Content-Length"));
        assertEquals("text/plain", partial.header("Content-Type"));
        assertEquals("\"r1\"", partial.header("ETag"));
        assertFromCache(partial, HIT_60);
        assertEquals(1, origin.count("/abc"));
    }

    @Test
    void anUnsatisfiableRangeGets416() {
        for (String range : new String[]{"bytes=26-", "bytes=100-200", "bytes=-0"}) {
            Reply reply = get("range.test", "/abc", "Range", range);
            assertReply(reply, 416, "");
            assertEquals("bytes */26", reply.header("Content-Range"), range);
            assertFromCache(reply, HIT_60);
        }
        assertEquals(1, origin.count("/abc"));
    }

    @Test
    void ifRangeAppliesTheRangeOnlyWhenTheValidatorMatches() {
        Reply matching = get("range.test", "/abc", "Range", "bytes=0-2", "If-Range", "\"r1\"");
        assertReply(matching, 206, "abc");
        assertEquals("bytes 0-2/26", matching.header("Content-Range"));

        Reply byDate = get("range.test", "/abc", "Range", "bytes=0-2", "If-Range", LAST_MODIFIED);
        assertReply(byDate, 206, "abc");

        for (String validator : new String[]{"\"r0\"", "W/\"r1\"", httpDate(Instant.now())}) {
            Reply changed = get("range.test", "/abc", "Range", "bytes=0-2", "If-Range", validator);
            assertReply(changed, 200, BODY);
            assertNull(changed.header("Content-Range"));
            assertEquals("26", changed.header("Content-Length"));
        }
        assertEquals(1, origin.count("/abc"));
    }

    @Test
    void aRangeOnAMissGoesToTheOriginAsItIs() {
        origin.on("/cold", request -> request.getHeader("Range") == null
                ? ScriptedOrigin.Reply.of(200, BODY, "Cache-Control", "max-age=60")
                : ScriptedOrigin.Reply.of(206, "abcdefghij", "Cache-Control", "max-age=60",
                        "Content-Range", "bytes 0-9/26"));

        Reply partial = get("range.test", "/cold", "Range", "bytes=0-9");
        assertReply(partial, 206, "abcdefghij");
        assertEquals("bytes 0-9/26", partial.header("Content-Range"));
        assertCacheStatus(partial, "Portico; fwd=uri-miss; detail=range");
        assertEquals("bytes=0-9", origin.last("/cold").headers().get("Range"));

        // Nothing was stored: the next full request is a miss, and then ranges come from the cache.
        assertCacheStatus(get("range.test", "/cold"), STORED);
        Reply cached = get("range.test", "/cold", "Range", "bytes=-3");
        assertReply(cached, 206, "xyz");
        assertFromCache(cached, HIT_60);
        assertEquals(2, origin.count("/cold"));
        assertNull(origin.last("/cold").headers().get("Range"));
    }

    @Test
    void aRangeOnAStaleResponseIsServedFromItOnceRevalidated() {
        origin.on("/stale", request -> "\"s1\"".equals(request.getHeader("If-None-Match"))
                ? ScriptedOrigin.Reply.of(304, "", "ETag", "\"s1\"", "Cache-Control", "max-age=0")
                : ScriptedOrigin.Reply.of(200, BODY, "ETag", "\"s1\"", "Cache-Control", "max-age=0"));
        get("range.test", "/stale");

        Reply partial = get("range.test", "/stale", "Range", "bytes=0-9");
        assertReply(partial, 206, "abcdefghij");
        assertEquals("bytes 0-9/26", partial.header("Content-Range"));
        assertFromCache(partial, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
        // The cache validated its complete response: the origin was not asked for the range.
        assertNull(origin.last("/stale").headers().get("Range"));
        assertEquals(2, origin.count("/stale"));
    }
}
