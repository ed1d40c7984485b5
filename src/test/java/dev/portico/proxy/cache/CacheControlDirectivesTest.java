package dev.portico.proxy.cache;

import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Cache-Control directives of responses and requests (RFC 9111 section 5.2), Authorization, cookies, RFC 9213. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CacheControlDirectivesTest extends CacheTestSupport {

    private static final String ETAG = "\"v1\"";

    /** 304 when the request carries the stored entity tag, else 200 with {@code cacheControl}. */
    private static ScriptedOrigin.Reply validating(HttpServerRequest request, String body, String cacheControl) {
        if (ETAG.equals(request.getHeader("If-None-Match"))) {
            return ScriptedOrigin.Reply.of(304, "", "ETag", ETAG, "Cache-Control", cacheControl);
        }
        return ScriptedOrigin.Reply.of(200, body, "ETag", ETAG, "Cache-Control", cacheControl);
    }

    @ParameterizedTest
    @ValueSource(strings = {"no-store", "private", "max-age=60, no-store", "max-age=60, private"})
    void responsesThatForbidStoringAreNotStored(String cacheControl) {
        origin.on("/r", ScriptedOrigin.Reply.of(200, "body", "Cache-Control", cacheControl));
        cachedVhost("forbid.test");

        for (int i = 0; i < 2; i++) {
            Reply reply = get("forbid.test", "/r");
            assertReply(reply, 200, "body");
            assertCacheStatus(reply, "Portico; fwd=miss; detail=" + (cacheControl.contains("no-store")
                    ? "no-store" : "private"));
            assertNull(reply.header("Age"));
        }
        assertEquals(2, origin.count("/r"));
    }

    @Test
    void noCacheIsStoredButRevalidatedOnEveryUse() {
        origin.on("/nc", request -> validating(request, "body", "no-cache"));
        cachedVhost("nocache.test");

        assertCacheStatus(get("nocache.test", "/nc"), STORED);
        for (int i = 2; i <= 4; i++) {
            Reply reply = get("nocache.test", "/nc");
            assertReply(reply, 200, "body");
            assertFromCache(reply, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
            assertEquals(ETAG, origin.last("/nc").headers().get("If-None-Match"));
            assertEquals(i, origin.count("/nc"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"must-revalidate", "proxy-revalidate"})
    void revalidateDirectivesForbidServingStaleEvenWhenTheVhostAllowsIt(String directive) {
        origin.on("/mr", request -> validating(request, "body", "max-age=0, " + directive));
        cachedVhost("revalidate.test", cache("staleWhileRevalidate", "1h", "staleIfError", "1h"));

        assertCacheStatus(get("revalidate.test", "/mr"), STORED);
        Reply reply = get("revalidate.test", "/mr");
        assertReply(reply, 200, "body");
        assertFromCache(reply, "Portico; fwd=stale; fwd-status=304; ttl=-?[0-9]+");
        assertEquals(2, origin.count("/mr"));
        assertEquals(ETAG, origin.last("/mr").headers().get("If-None-Match"));
    }

    @Test
    void publicLetsAResponseToAnAuthorizedRequestBeShared() {
        origin.on("/p", ScriptedOrigin.Reply.of(200, "public", "Cache-Control", "public, max-age=60"));
        cachedVhost("public.test");

        assertCacheStatus(get("public.test", "/p", "Authorization", "Bearer a"), STORED);
        assertFromCache(get("public.test", "/p", "Authorization", "Bearer b"), HIT_60);
        Reply anonymous = get("public.test", "/p");
        assertReply(anonymous, 200, "public");
        assertFromCache(anonymous, HIT_60);
        assertEquals(1, origin.count("/p"));
    }

    @Test
    void requestNoStoreBypassesTheCache() {
        origin.on("/ns", ScriptedOrigin.Reply.of(200, "body", "Cache-Control", "max-age=60"));
        cachedVhost("reqnostore.test");

        Reply bypassed = get("reqnostore.test", "/ns", "Cache-Control", "no-store");
        assertReply(bypassed, 200, "body");
        assertCacheStatus(bypassed, "Portico; fwd=request; detail=no-store");
        // Nothing was stored by it: the next request is a miss, which stores.
        assertCacheStatus(get("reqnostore.test", "/ns"), STORED);
        // A stored response is not used for it either.
        assertCacheStatus(get("reqnostore.test", "/ns", "Cache-Control", "no-store"),
                "Portico; fwd=request; detail=no-store");
        assertEquals(3, origin.count("/ns"));
        assertFromCache(get("reqnostore.test", "/ns"), HIT_60);
        assertEquals(3, origin.count("/ns"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Cache-Control: no-cache", "Cache-Control: max-age=0", "Pragma: no-cache"})
    void aReloadRevalidatesAFreshResponse(String header) {
        origin.on("/reload", request -> validating(request, "body", "max-age=60"));
        cachedVhost("reload.test");
        String[] field = header.split(": ");

        get("reload.test", "/reload");
        assertFromCache(get("reload.test", "/reload"), HIT_60);
        assertEquals(1, origin.count("/reload"));

        Reply reloaded = get("reload.test", "/reload", field[0], field[1]);
        assertReply(reloaded, 200, "body");
        assertFromCache(reloaded, "Portico; fwd=stale; fwd-status=304; ttl=(59|60)");
        assertEquals(2, origin.count("/reload"));
        assertEquals(ETAG, origin.last("/reload").headers().get("If-None-Match"));
    }

    @Test
    void onlyIfCachedIsAnsweredFromTheCacheOr504() {
        origin.on("/oic", ScriptedOrigin.Reply.of(200, "body", "Cache-Control", "max-age=60"));
        cachedVhost("oic.test");

        Reply absent = get("oic.test", "/oic", "Cache-Control", "only-if-cached");
        assertEquals(504, absent.status());
        assertEquals("application/problem+json", absent.header("Content-Type"));
        JsonObject problem = absent.json();
        assertEquals("not_cached", problem.getString("reason"));
        assertEquals(504, problem.getInteger("status"));
        assertEquals(0, origin.count("/oic"));

        get("oic.test", "/oic");
        Reply present = get("oic.test", "/oic", "Cache-Control", "only-if-cached");
        assertReply(present, 200, "body");
        assertFromCache(present, HIT_60);
        assertEquals(1, origin.count("/oic"));
    }

    @Test
    void onlyIfCachedNeverGoesToTheOriginForAStaleResponse() {
        origin.on("/stale", request -> validating(request, "body", "max-age=0"));
        cachedVhost("oic-stale.test");

        get("oic-stale.test", "/stale");
        Reply reply = get("oic-stale.test", "/stale", "Cache-Control", "only-if-cached");
        assertEquals(504, reply.status());
        assertEquals("not_cached", reply.json().getString("reason"));
        assertEquals(1, origin.count("/stale"));
    }

    @Test
    void aResponseToAnAuthorizedRequestIsNotStoredUnlessItSaysItMayBeShared() {
        origin.on("/private", ScriptedOrigin.Reply.of(200, "mine", "Cache-Control", "max-age=60"))
                .on("/smaxage", ScriptedOrigin.Reply.of(200, "shared", "Cache-Control", "s-maxage=60"))
                .on("/must", ScriptedOrigin.Reply.of(200, "must", "Cache-Control", "max-age=60, must-revalidate"));
        cachedVhost("auth.test");

        for (int i = 0; i < 2; i++) {
            Reply reply = get("auth.test", "/private", "Authorization", "Basic dXNlcjpwYXNz");
            assertReply(reply, 200, "mine");
            assertCacheStatus(reply, "Portico; fwd=miss; detail=authorization");
        }
        assertEquals(2, origin.count("/private"));
        // And nobody else gets it.
        assertCacheStatus(get("auth.test", "/private"), STORED);
        assertEquals(3, origin.count("/private"));

        for (String path : new String[]{"/smaxage", "/must"}) {
            assertCacheStatus(get("auth.test", path, "Authorization", "Basic dXNlcjpwYXNz"), STORED);
            assertFromCache(get("auth.test", path, "Authorization", "Basic b3RoZXI6cGFzcw=="), HIT_60);
            assertEquals(1, origin.count(path));
        }
    }

    @Test
    void aResponseSettingACookieIsNotStored() {
        origin.on("/cookie", ScriptedOrigin.Reply.of(200, "cookie", "Cache-Control", "public, max-age=60",
                "Set-Cookie", "session=abc; HttpOnly"));
        cachedVhost("cookie.test");

        for (int i = 0; i < 2; i++) {
            Reply reply = get("cookie.test", "/cookie");
            assertReply(reply, 200, "cookie");
            assertEquals("session=abc; HttpOnly", reply.header("Set-Cookie"));
            assertCacheStatus(reply, "Portico; fwd=miss; detail=set-cookie");
        }
        assertEquals(2, origin.count("/cookie"));
    }

    @Test
    void cdnCacheControlTakesPrecedenceOverCacheControl() {
        origin.on("/cdn-allows", ScriptedOrigin.Reply.of(200, "allowed", "Cache-Control", "no-store",
                        "CDN-Cache-Control", "max-age=60"))
                .on("/cdn-forbids", ScriptedOrigin.Reply.of(200, "forbidden", "Cache-Control", "max-age=60",
                        "CDN-Cache-Control", "no-store"));
        cachedVhost("cdn.test");

        assertCacheStatus(get("cdn.test", "/cdn-allows"), STORED);
        Reply hit = get("cdn.test", "/cdn-allows");
        assertReply(hit, 200, "allowed");
        assertFromCache(hit, HIT_60);
        // Downstream caches still get the origin's own instructions.
        assertEquals("no-store", hit.header("Cache-Control"));
        assertEquals(1, origin.count("/cdn-allows"));

        for (int i = 0; i < 2; i++) {
            assertCacheStatus(get("cdn.test", "/cdn-forbids"), "Portico; fwd=miss; detail=no-store");
        }
        assertEquals(2, origin.count("/cdn-forbids"));
    }

    /** RFC 9213 section 2.1: a field that is not a valid Dictionary, or gives a directive the wrong type, is ignored. */
    @ParameterizedTest
    @ValueSource(strings = {"max-age=10000, &&&&&", "max-age=\"10000\"", "max-age=10000.5", "Max-Age=10000",
            "max-age=10000,"})
    void anUnusableCdnCacheControlLeavesCacheControlInCharge(String cdnCacheControl) {
        origin.on("/lifetime", ScriptedOrigin.Reply.of(200, "lifetime", "Cache-Control", "max-age=60",
                        "CDN-Cache-Control", cdnCacheControl))
                .on("/forbidden", ScriptedOrigin.Reply.of(200, "forbidden", "Cache-Control", "no-store",
                        "CDN-Cache-Control", cdnCacheControl));
        cachedVhost("cdn-invalid.test");

        assertCacheStatus(get("cdn-invalid.test", "/lifetime"), STORED);
        Reply hit = get("cdn-invalid.test", "/lifetime");
        assertReply(hit, 200, "lifetime");
        assertFromCache(hit, HIT_60);
        // Passed on unchanged all the same: it is the origin's, for caches downstream.
        assertEquals(cdnCacheControl, hit.header("CDN-Cache-Control"));
        assertEquals(1, origin.count("/lifetime"));

        for (int i = 0; i < 2; i++) {
            assertCacheStatus(get("cdn-invalid.test", "/forbidden"), "Portico; fwd=miss; detail=no-store");
        }
        assertEquals(2, origin.count("/forbidden"));
    }

    @Test
    void aValidCdnCacheControlIgnoresUnknownMembersAndParameters() {
        origin.on("/cdn", ScriptedOrigin.Reply.of(200, "cdn", "Cache-Control", "no-store",
                "CDN-Cache-Control", "max-age=60;scope=edge, x-vendor=\"anything\", tier=(1 2)"));
        cachedVhost("cdn-valid.test");

        assertCacheStatus(get("cdn-valid.test", "/cdn"), STORED);
        assertFromCache(get("cdn-valid.test", "/cdn"), HIT_60);
        assertEquals(1, origin.count("/cdn"));
    }
}
