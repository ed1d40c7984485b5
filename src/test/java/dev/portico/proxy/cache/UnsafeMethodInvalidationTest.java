package dev.portico.proxy.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Unsafe methods invalidate what they change (RFC 9111 section 4.4); HEAD is answered from a stored GET. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UnsafeMethodInvalidationTest extends CacheTestSupport {

    /** GETs answer a cacheable body naming the host; anything else answers {@code status} with {@code headers}. */
    private void script(String path, int unsafeStatus, String... unsafeHeaders) {
        origin.on(path, request -> request.method() == HttpMethod.GET
                ? ScriptedOrigin.Reply.of(200, request.getHeader("Host") + path, "Cache-Control", "max-age=60")
                : ScriptedOrigin.Reply.of(unsafeStatus, "done", unsafeHeaders));
    }

    private void assertHit(String host, String path) {
        Reply reply = get(host, path);
        assertReply(reply, 200, host + path);
        assertFromCache(reply, HIT_60);
    }

    private void assertStoredAgain(String host, String path) {
        Reply reply = get(host, path);
        assertReply(reply, 200, host + path);
        assertCacheStatus(reply, STORED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE", "PATCH"})
    void aSuccessfulUnsafeRequestInvalidatesItsTarget(String method) {
        script("/doc", 204);
        cachedVhost("unsafe.test");

        assertStoredAgain("unsafe.test", "/doc");
        assertHit("unsafe.test", "/doc");

        Reply changed = send(HttpMethod.valueOf(method), "unsafe.test", "/doc");
        assertEquals(204, changed.status());
        assertCacheStatus(changed, "Portico; fwd=method");
        assertEquals(1, origin.count(method, "/doc"));

        assertStoredAgain("unsafe.test", "/doc");
        assertHit("unsafe.test", "/doc");
        assertEquals(2, origin.count("GET", "/doc"));
    }

    @Test
    void locationAndContentLocationOnTheSameOriginAreInvalidatedOtherHostsAreNot() {
        script("/item", 405);
        script("/copy", 405);
        origin.on("/create", ScriptedOrigin.Reply.of(201, "created", "Location", "http://a.inval.test/item",
                "Content-Location", "/copy"));
        origin.on("/create-elsewhere", ScriptedOrigin.Reply.of(201, "created", "Location", "http://b.inval.test/item",
                "Content-Location", "http://b.inval.test/copy"));
        Api.create(Api.vhost("inval", "a.inval.test", origin.url()).put("cache", cache())
                .put("hostnames", new JsonArray().add("a.inval.test").add("b.inval.test")));
        for (String host : new String[]{"a.inval.test", "b.inval.test"}) {
            for (String path : new String[]{"/item", "/copy"}) {
                assertStoredAgain(host, path);
                assertHit(host, path);
            }
        }

        // Another host of the same vhost is another origin: its responses stay.
        assertEquals(201, send(HttpMethod.POST, "a.inval.test", "/create-elsewhere").status());
        assertHit("b.inval.test", "/item");
        assertHit("b.inval.test", "/copy");
        assertHit("a.inval.test", "/item");
        assertHit("a.inval.test", "/copy");

        assertEquals(201, send(HttpMethod.POST, "a.inval.test", "/create").status());
        assertStoredAgain("a.inval.test", "/item");
        assertStoredAgain("a.inval.test", "/copy");
        assertHit("b.inval.test", "/item");
        assertHit("b.inval.test", "/copy");
        assertEquals(3, origin.count("GET", "/item"));
        assertEquals(3, origin.count("GET", "/copy"));
    }

    @Test
    void aFailedUnsafeRequestInvalidatesNothing() {
        script("/doc", 500);
        cachedVhost("failed.test");

        assertStoredAgain("failed.test", "/doc");
        Reply failed = send(HttpMethod.POST, "failed.test", "/doc");
        assertEquals(500, failed.status());
        assertCacheStatus(failed, "Portico; fwd=method");
        assertHit("failed.test", "/doc");
        assertEquals(1, origin.count("GET", "/doc"));
    }

    @Test
    void headIsAnsweredFromAStoredGet() {
        String body = "x".repeat(1234);
        origin.on("/page", ScriptedOrigin.Reply.of(200, body, "Cache-Control", "max-age=60", "ETag", "\"p1\"",
                "Content-Type", "text/plain"));
        cachedVhost("head.test");

        get("head.test", "/page");
        Reply head = send(HttpMethod.HEAD, "head.test", "/page");
        assertEquals(200, head.status());
        assertEquals(0, head.body().length());
        assertEquals("1234", head.header("Content-Length"));
        assertEquals("\"p1\"", head.header("ETag"));
        assertEquals("text/plain", head.header("Content-Type"));
        assertFromCache(head, HIT_60);
        assertEquals(1, origin.count("/page"));
        assertEquals(0, origin.count("HEAD", "/page"));

        // A HEAD with nothing stored goes to the origin as a HEAD and stores nothing.
        origin.on("/other", ScriptedOrigin.Reply.of(200, "other", "Cache-Control", "max-age=60"));
        Reply miss = send(HttpMethod.HEAD, "head.test", "/other");
        assertEquals(200, miss.status());
        assertCacheStatus(miss, "Portico; fwd=uri-miss; detail=head");
        assertEquals(1, origin.count("HEAD", "/other"));
        assertCacheStatus(get("head.test", "/other"), STORED);
    }
}
