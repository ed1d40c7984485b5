package dev.portico.proxy.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Decode;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Serving stale responses: stale-while-revalidate and stale-if-error (RFC 5861), and what forbids them. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaleServingTest extends CacheTestSupport {

    private static final String SWR = "Portico; hit; detail=stale-while-revalidate; ttl=-?[0-9]+";
    private static final String SIE = "Portico; hit; detail=stale-if-error; ttl=-?[0-9]+";

    @Test
    void staleWhileRevalidateFromTheOrigin() {
        staleWhileRevalidate("swr.test", cache(), "max-age=0, stale-while-revalidate=60");
    }

    @Test
    void staleWhileRevalidateFromTheVhostDefault() {
        staleWhileRevalidate("swr-default.test", cache("staleWhileRevalidate", "1m"), "max-age=0");
    }

    /**
     * The stale response is served at once while one background request, held at the origin, refreshes it; once
     * it is answered, requests get the new response from the cache.
     */
    private void staleWhileRevalidate(String host, JsonObject cache, String firstCacheControl) {
        CompletableFuture<Void> refreshAnswered = new CompletableFuture<>();
        origin.inTurn("/swr",
                ScriptedOrigin.Reply.of(200, "old", "ETag", "\"v1\"", "Cache-Control", firstCacheControl),
                ScriptedOrigin.Reply.of(200, "new", "ETag", "\"v2\"", "Cache-Control", "max-age=60")
                        .held(refreshAnswered));
        cachedVhost(host, cache);
        assertCacheStatus(get(host, "/swr"), STORED);

        for (int i = 0; i < 3; i++) {
            Reply stale = get(host, "/swr");
            assertReply(stale, 200, "old");
            assertFromCache(stale, SWR);
            assertEquals("\"v1\"", stale.header("ETag"));
        }
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(2, origin.count("/swr")));
        assertEquals("\"v1\"", origin.last("/swr").headers().get("If-None-Match"));

        refreshAnswered.complete(null);
        Eventually.within(Duration.ofSeconds(5), () -> assertReply(get(host, "/swr"), 200, "new"));
        for (int i = 0; i < 3; i++) {
            Reply hit = get(host, "/swr");
            assertReply(hit, 200, "new");
            assertFromCache(hit, HIT_60);
        }
        assertEquals(2, origin.count("/swr"), () -> "one refresh, and none once it is stored: " + origin.seen());
    }

    @Test
    void aBackgroundRevalidationUpdatesHeadersButNeverStoresHopByHopFields() {
        origin.inTurn("/hop",
                ScriptedOrigin.Reply.of(200, "body", "ETag", "\"v1\"",
                        "Cache-Control", "max-age=0, stale-while-revalidate=60"),
                ScriptedOrigin.Reply.of(304, "", "ETag", "\"v1\"", "Cache-Control", "max-age=60",
                        "X-Refreshed", "yes", "Connection", "X-Hop", "X-Hop", "secret", "Keep-Alive", "timeout=5"));
        cachedVhost("swr-hop.test");
        get("swr-hop.test", "/hop");

        assertFromCache(get("swr-hop.test", "/hop"), SWR);
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals("yes", get("swr-hop.test", "/hop")
                .header("X-Refreshed")));
        Reply hit = get("swr-hop.test", "/hop");
        assertReply(hit, 200, "body");
        assertFromCache(hit, HIT_60);
        assertEquals(null, hit.header("X-Hop"));
        assertEquals(null, hit.header("Keep-Alive"));
        assertEquals(2, origin.count("/hop"));
    }

    @Test
    void aBackgroundRevalidationIsSentAsTheVhostSendsEveryRequest() {
        CompletableFuture<Void> refreshAnswered = new CompletableFuture<>();
        origin.inTurn("/edited",
                ScriptedOrigin.Reply.of(200, "old", "Cache-Control", "max-age=0, stale-while-revalidate=60"),
                ScriptedOrigin.Reply.of(200, "new", "Cache-Control", "max-age=60").held(refreshAnswered));
        Api.create(Api.vhost("swr-edited", "swr-edited.test", origin.url()).put("cache", cache())
                .put("requestHeaders", new JsonObject().put("set", new JsonObject().put("X-Origin-Key", "k1"))
                        .put("remove", new JsonArray().add("X-Debug"))));
        String[] spoofing = {"X-Forwarded-For", "6.6.6.6", "X-Debug", "on"};

        get("swr-edited.test", "/edited", spoofing);
        assertFromCache(get("swr-edited.test", "/edited", spoofing), SWR);
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(2, origin.count("/edited")));
        refreshAnswered.complete(null);

        for (ScriptedOrigin.Seen seen : origin.seen()) {
            assertEquals("k1", seen.headers().get("X-Origin-Key"));
            assertEquals("127.0.0.1", seen.headers().get("X-Forwarded-For"));
            assertEquals(null, seen.headers().get("X-Debug"));
        }
    }

    /**
     * The background refresh passes the compressor like any request from the cache inwards: what it stores is the
     * variant the triggering client gets, compressed with its coding, so the next hit is that client's bytes.
     */
    @ParameterizedTest
    @ValueSource(ints = {200, 404})
    void aBackgroundRefreshOnACompressingVhostStoresTheCompressedVariant(int status) {
        String oldPage = "old ".repeat(400);
        String newPage = "new ".repeat(400);
        CompletableFuture<Void> refreshAnswered = new CompletableFuture<>();
        origin.inTurn("/swr-gzip",
                ScriptedOrigin.Reply.of(status, oldPage, "ETag", "\"v1\"", "Content-Type", "text/plain",
                        "Cache-Control", "max-age=0, stale-while-revalidate=60"),
                ScriptedOrigin.Reply.of(status, newPage, "ETag", "\"v2\"", "Content-Type", "text/plain",
                        "Cache-Control", "max-age=60").held(refreshAnswered));
        String host = "swr-gzip-" + status + ".test";
        Api.create(Api.vhost("swr-gzip-" + status, host, origin.url()).put("cache", cache())
                .put("compression", Api.enabled()));
        assertCacheStatus(get(host, "/swr-gzip", "Accept-Encoding", "gzip"), STORED);

        Reply stale = get(host, "/swr-gzip", "Accept-Encoding", "gzip");
        assertFromCache(stale, SWR);
        assertEquals("gzip", stale.header("Content-Encoding"));
        refreshAnswered.complete(null);

        Eventually.within(Duration.ofSeconds(5), () -> assertEquals("W/\"v2\"",
                get(host, "/swr-gzip", "Accept-Encoding", "gzip").header("ETag")));
        Reply hit = get(host, "/swr-gzip", "Accept-Encoding", "gzip");
        assertFromCache(hit, HIT_60);
        assertEquals("gzip", hit.header("Content-Encoding"));
        assertEquals("Accept-Encoding", hit.header("Vary"));
        assertEquals(newPage, new String(Decode.body("gzip", hit.body().getBytes()), StandardCharsets.UTF_8));
        assertEquals("gzip", origin.last("/swr-gzip").headers().get("Accept-Encoding"),
                "the refresh asks as the client did");
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 502, 503, 504})
    void staleIfErrorFromTheOriginWhenItAnswersWithAnError(int status) {
        origin.inTurn("/sie",
                ScriptedOrigin.Reply.of(200, "good", "Cache-Control", "max-age=0, stale-if-error=60"),
                ScriptedOrigin.Reply.of(status, "bad"));
        cachedVhost("sie.test");

        get("sie.test", "/sie");
        for (int i = 2; i <= 3; i++) {
            Reply stale = get("sie.test", "/sie");
            assertReply(stale, 200, "good");
            assertFromCache(stale, SIE);
            assertEquals(i, origin.count("/sie"));
        }
    }

    @Test
    void staleIfErrorFromTheVhostDefaultWhenTheOriginRefusesConnections() {
        origin.on("/down", ScriptedOrigin.Reply.of(200, "good", "Cache-Control", "max-age=0"));
        cachedVhost("sie-refused.test", cache("staleIfError", "1h"));

        get("sie-refused.test", "/down");
        origin.close();
        Reply stale = get("sie-refused.test", "/down");
        assertReply(stale, 200, "good");
        assertFromCache(stale, SIE);
        assertEquals(1, origin.count("/down"));
    }

    @Test
    void staleIfErrorWhenTheOriginTimesOut() {
        origin.inTurn("/slow",
                ScriptedOrigin.Reply.of(200, "good", "Cache-Control", "max-age=0"),
                ScriptedOrigin.Reply.of(200, "late", "Cache-Control", "max-age=0").delayed(3000));
        Api.create(Api.vhost("sie-timeout", "sie-timeout.test", origin.url()).put("readTimeout", "300ms")
                .put("cache", cache("staleIfError", "1h")));

        get("sie-timeout.test", "/slow");
        long start = System.nanoTime();
        Reply stale = get("sie-timeout.test", "/slow");
        assertReply(stale, 200, "good");
        assertFromCache(stale, SIE);
        assertTrue(System.nanoTime() - start < Duration.ofMillis(2500).toNanos(), "answered before the origin");
        assertEquals(2, origin.count("/slow"));
    }

    @Test
    void mustRevalidateForbidsServingStale() {
        String directives = "max-age=0, must-revalidate, stale-while-revalidate=60, stale-if-error=60";
        origin.inTurn("/strict",
                ScriptedOrigin.Reply.of(200, "one", "Cache-Control", directives),
                ScriptedOrigin.Reply.of(200, "two", "Cache-Control", directives),
                ScriptedOrigin.Reply.of(503, "unavailable"));
        cachedVhost("strict.test", cache("staleWhileRevalidate", "1h", "staleIfError", "1h"));

        get("strict.test", "/strict");
        Reply revalidated = get("strict.test", "/strict");
        assertReply(revalidated, 200, "two");
        assertCacheStatus(revalidated, "Portico; fwd=stale; fwd-status=200; stored");
        Reply failed = get("strict.test", "/strict");
        assertReply(failed, 503, "unavailable");
        assertCacheStatus(failed, "Portico; fwd=stale; fwd-status=503; detail=no-freshness");
        assertEquals(3, origin.count("/strict"));
    }
}
