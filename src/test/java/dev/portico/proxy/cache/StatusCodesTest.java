package dev.portico.proxy.cache;

import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which response statuses are stored (RFC 9111 section 3, RFC 9110 section 15.1). */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StatusCodesTest extends CacheTestSupport {

    @ParameterizedTest
    @ValueSource(ints = {200, 301, 404, 410})
    void statusesCacheableByDefaultAreStoredWithAnExplicitLifetime(int status) {
        origin.on("/s", ScriptedOrigin.Reply.of(status, "status " + status, "Cache-Control", "max-age=60",
                "Location", "/target"));
        cachedVhost("status.test");

        Reply first = get("status.test", "/s");
        assertReply(first, status, "status " + status);
        assertCacheStatus(first, STORED);
        Reply hit = get("status.test", "/s");
        assertReply(hit, status, "status " + status);
        assertFromCache(hit, HIT_60);
        assertEquals("/target", hit.header("Location"));
        assertEquals(Integer.toString(("status " + status).length()), hit.header("Content-Length"));
        assertEquals(1, origin.count("/s"));
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 301, 404, 410})
    void statusesCacheableByDefaultAreStoredHeuristicallyWithADefaultTtl(int status) {
        origin.on("/s", ScriptedOrigin.Reply.of(status, "status " + status));
        cachedVhost("heuristic-status.test", cache("defaultTtl", "60s"));

        assertCacheStatus(get("heuristic-status.test", "/s"), STORED);
        Reply hit = get("heuristic-status.test", "/s");
        assertReply(hit, status, "status " + status);
        assertFromCache(hit, HIT_60);
        assertEquals(1, origin.count("/s"));
    }

    @ParameterizedTest
    @ValueSource(ints = {302, 307})
    void temporaryRedirectsAreStoredOnlyWithExplicitFreshness(int status) {
        origin.on("/plain", ScriptedOrigin.Reply.of(status, "", "Location", "/elsewhere"))
                .on("/explicit", ScriptedOrigin.Reply.of(status, "", "Location", "/elsewhere",
                        "Cache-Control", "max-age=60"));
        cachedVhost("redirect.test", cache("defaultTtl", "1h"));

        for (int i = 0; i < 2; i++) {
            Reply plain = get("redirect.test", "/plain");
            assertEquals(status, plain.status());
            assertCacheStatus(plain, "Portico; fwd=miss; detail=no-freshness");
        }
        assertEquals(2, origin.count("/plain"));

        assertCacheStatus(get("redirect.test", "/explicit"), STORED);
        Reply hit = get("redirect.test", "/explicit");
        assertEquals(status, hit.status());
        assertEquals("/elsewhere", hit.header("Location"));
        assertFromCache(hit, HIT_60);
        assertEquals(1, origin.count("/explicit"));
    }

    @Test
    void partialContentIsNeverStored() {
        origin.on("/partial", ScriptedOrigin.Reply.of(206, "0123456789", "Cache-Control", "max-age=60",
                "Content-Range", "bytes 0-9/100"));
        cachedVhost("partial.test");

        for (int i = 0; i < 2; i++) {
            Reply reply = get("partial.test", "/partial");
            assertReply(reply, 206, "0123456789");
            assertEquals("bytes 0-9/100", reply.header("Content-Range"));
            assertCacheStatus(reply, "Portico; fwd=miss; detail=status");
        }
        assertEquals(2, origin.count("/partial"));
    }

    @Test
    void serverErrorsAreNotStoredWithoutExplicitFreshness() {
        origin.on("/error", ScriptedOrigin.Reply.of(500, "broken"));
        cachedVhost("error.test", cache("defaultTtl", "1h"));

        for (int i = 0; i < 2; i++) {
            Reply reply = get("error.test", "/error");
            assertReply(reply, 500, "broken");
            assertCacheStatus(reply, "Portico; fwd=miss; detail=no-freshness");
        }
        assertEquals(2, origin.count("/error"));
    }
}
