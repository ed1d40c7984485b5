package dev.portico.proxy.files;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A vhost with files and upstreams: files first, the upstreams for everything no file matches (refused paths
 * included, which never reach the disk), and the response cache in front of both.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticFallbackTest extends StaticTestSupport {

    private static final String HOST = "fallback.test";

    private JsonObject staticVhost() {
        return site.vhost("fallback", HOST);
    }

    private Reply get(String uri) {
        return client().get(HOST, uri);
    }

    private Reply send(HttpMethod method, String uri, Map<String, String> headers) {
        return client().send(method, HOST, uri, headers, null);
    }

    @Test
    void filesComeFirstThenTheUpstreams() {
        origin = ScriptedOrigin.start().on("/api/items", ScriptedOrigin.Reply.of(200, "from origin"))
                .on("/hello.txt", ScriptedOrigin.Reply.of(200, "origin hello"));
        Api.create(staticVhost().put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url()))));

        assertEquals("hello world\n", get("/hello.txt").text());
        assertEquals("from origin", get("/api/items").text());
        assertEquals("from origin", send(HttpMethod.POST, "/api/items", Map.of()).text());
        // Static-looking paths that are refused or missing go upstream too, never to the disk.
        assertEquals("not scripted", get("/secret.txt").text());
        assertEquals("not scripted", get("/.env").text());
        assertEquals(405, send(HttpMethod.POST, "/hello.txt", Map.of()).status());
        assertEquals(0, origin.count("/hello.txt"));
        assertEquals(2, origin.count("/api/items"));
        // The forwarding stages run for the upstream, not for files.
        assertNotNull(origin.last("/api/items").headers().get("X-Forwarded-For"));
    }

    @Test
    void filesAndTheCacheShareAVhost() {
        origin = ScriptedOrigin.start().on("/api/items", ScriptedOrigin.Reply.of(200, "cached",
                "Cache-Control", "max-age=60"));
        Api.create(staticVhost().put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url())))
                .put("cache", new JsonObject().put("enabled", true)));

        // Concurrent misses for one file collapse in the cache stage; the file must release them at once.
        List<Future<Reply>> concurrent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            concurrent.add(client().sendAsync(HttpMethod.GET, HOST, "/big.bin", Map.of(), null));
        }
        long started = System.nanoTime();
        for (Future<Reply> f : concurrent) {
            assertEquals(Site.BIG, TestVertx.await(f).body().length());
        }
        assertTrue(System.nanoTime() - started < 4_000_000_000L, "waited for a cache lock that was never released");
        Reply file = get("/hello.txt");
        assertEquals("hello world\n", file.text());
        assertNull(file.header("Age"));
        assertEquals("cached", get("/api/items").text());
        assertTrue(get("/api/items").header("Cache-Status").startsWith("Portico; hit"));
        assertEquals(1, origin.count("/api/items"));
    }
}
