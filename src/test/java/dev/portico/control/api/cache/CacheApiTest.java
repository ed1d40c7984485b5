package dev.portico.control.api.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The vhost cache block, {@code /api/v1/vhosts/{id}/cache}, and the cache's live statistics and metrics. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CacheApiTest extends CacheTestSupport {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private static String cachePath(String id) {
        return VHOSTS + "/" + id + "/cache";
    }

    private static JsonObject view(String id) {
        return new JsonObject(Api.given().get(cachePath(id)).then().statusCode(200).extract().asString());
    }

    /** Purges with the given query parameters (name, value, ...) and returns how many URIs went. */
    private static int purge(String id, String... params) {
        var request = Api.given();
        for (int i = 0; i + 1 < params.length; i += 2) {
            request = request.queryParam(params[i], params[i + 1]);
        }
        return request.delete(cachePath(id)).then().statusCode(200).extract().path("purged");
    }

    @ParameterizedTest
    @CsvSource({
            "maxSize, lots",
            "maxSize, 1KiB",
            "maxSize, 2TiB",
            "maxObjectSize, 0",
            "maxObjectSize, 8 MB",
            "defaultTtl, forever",
            "defaultTtl, 400d",
            "staleWhileRevalidate, -1s",
            "staleIfError, 1y",
            "lockTimeout, 0s",
            "lockTimeout, 2m"})
    void anInvalidCacheSettingIsAProblemNamingTheField(String field, String value) {
        JsonObject vhost = Api.vhost("invalid", "invalid.test", origin.url())
                .put("cache", cache(field, value));
        Response response = Api.given().body(vhost.encode()).post(VHOSTS);
        assertInvalid(response, "cache." + field);
        assertNoVhosts();
    }

    @Test
    void aBadIgnoredQueryParameterIsNamedByItsIndex() {
        JsonObject vhost = Api.vhost("invalid", "invalid.test", origin.url())
                .put("cache", cache("ignoreQueryParams", new JsonArray().add("utm_source").add("a b")));
        assertInvalid(Api.given().body(vhost.encode()).post(VHOSTS), "cache.ignoreQueryParams[1]");
        assertNoVhosts();
    }

    @Test
    void theCacheBlockIsShownWithItsDefaults() {
        String plain = Api.create(Api.vhost("plain", "plain.test", origin.url()));
        JsonObject off = new JsonObject(Api.given().get(VHOSTS + "/" + plain).then().statusCode(200).extract()
                .asString()).getJsonObject("cache");
        assertEquals(new JsonObject().put("enabled", false).put("maxSize", "64MiB").put("maxObjectSize", "8MiB")
                .put("defaultTtl", "0s").put("staleWhileRevalidate", "0s").put("staleIfError", "0s")
                .put("lockTimeout", "5s").put("ignoreQueryParams", new JsonArray()), off);

        String some = Api.create(Api.vhost("some", "some.test", origin.url())
                .put("cache", cache("maxSize", "1048576", "defaultTtl", "3600s")));
        JsonObject on = new JsonObject(Api.given().get(VHOSTS + "/" + some).then().statusCode(200).extract()
                .asString()).getJsonObject("cache");
        assertEquals(new JsonObject().put("enabled", true).put("maxSize", "1MiB").put("maxObjectSize", "8MiB")
                .put("defaultTtl", "1h").put("staleWhileRevalidate", "0s").put("staleIfError", "0s")
                .put("lockTimeout", "5s").put("ignoreQueryParams", new JsonArray()), on);

        JsonObject disabled = view(plain);
        assertEquals(false, disabled.getBoolean("enabled"));
        assertEquals(0, disabled.getInteger("entries"));
        assertEquals(0, disabled.getInteger("maxBytes"));
        assertEquals(1 << 20, view(some).getInteger("maxBytes"));
    }

    @Test
    void theCacheViewCountsWhatTheCacheHoldsAndDid() {
        origin.on("/a", ScriptedOrigin.Reply.of(200, "a".repeat(100), "Cache-Control", "max-age=60"))
                .on("/b", ScriptedOrigin.Reply.of(200, "b".repeat(50), "Cache-Control", "max-age=60"))
                .on("/form", ScriptedOrigin.Reply.of(303, "", "Location", "/a"));
        String id = cachedVhost("counted.cache.test");
        String vhost = "counted-cache-test";

        get("counted.cache.test", "/a");
        get("counted.cache.test", "/a");
        get("counted.cache.test", "/a");
        get("counted.cache.test", "/b");
        get("counted.cache.test", "/b");
        assertEquals(303, send(HttpMethod.POST, "counted.cache.test", "/form").status());
        assertEquals(3, origin.count("/a") + origin.count("/b") + origin.count("/form"));

        Eventually.within(Duration.ofSeconds(10), () -> {
            JsonObject view = view(id);
            assertEquals(3, view.getInteger("hits"), view::encode);
            assertEquals(2, view.getInteger("misses"), view::encode);
            assertEquals(1, view.getInteger("bypassed"), view::encode);
        });
        JsonObject view = view(id);
        assertEquals(id, view.getString("id"));
        assertEquals(vhost, view.getString("vhost"));
        assertTrue(view.getBoolean("enabled"));
        // The POST's 303 invalidated /a (its Location) as well as /form.
        assertEquals(1, view.getInteger("entries"));
        assertEquals(50, view.getLong("bodyBytes"));
        long bytes = view.getLong("bytes");
        assertTrue(bytes > 50 && bytes < 2000, view::encode);
        assertEquals(64L << 20, view.getLong("maxBytes"));
        assertEquals(0, view.getInteger("evictions"));
        assertEquals(0, view.getInteger("stale"));
        assertEquals(0, view.getInteger("revalidated"));
        assertEquals(0, view.getInteger("collapsed"));
        assertEquals(0.6, view.getDouble("hitRatio"));

        JsonObject stats = new JsonObject(Api.given().get("/api/v1/stats").then().statusCode(200).extract().asString());
        JsonObject vhostStats = stats.getJsonArray("vhosts").stream().map(JsonObject.class::cast)
                .filter(v -> v.getString("vhost").equals(vhost)).findFirst().orElseThrow();
        assertEquals(new JsonObject().put("hit", 3).put("miss", 2).put("bypass", 1),
                vhostStats.getJsonObject("cache"));

        Scrape scrape = Scrape.of(metrics);
        String label = "vhost=\"" + vhost + "\"";
        assertEquals(3, scrape.value("portico_cache_requests_total{result=\"hit\"," + label + "}"));
        assertEquals(2, scrape.value("portico_cache_requests_total{result=\"miss\"," + label + "}"));
        assertEquals(1, scrape.value("portico_cache_requests_total{result=\"bypass\"," + label + "}"));
        assertEquals(0, scrape.valueOrZero("portico_cache_requests_total{result=\"stale\"," + label + "}"));
        assertEquals(1, scrape.value("portico_cache_entries{" + label + "}"));
        assertEquals(bytes, scrape.value("portico_cache_bytes{" + label + "}"));
        assertEquals(64L << 20, scrape.value("portico_cache_max_bytes{" + label + "}"));
        assertEquals(0, scrape.value("portico_cache_evictions_total{" + label + "}"));
    }

    @Test
    void aVhostsCacheStaysWithinItsShareAndCountsEvictions() {
        String body = "e".repeat(300 * 1024);
        origin.on("/big", ScriptedOrigin.Reply.of(200, body, "Cache-Control", "max-age=60"))
                .on("/huge", ScriptedOrigin.Reply.of(200, "h".repeat(600 * 1024), "Cache-Control", "max-age=60"));
        String id = cachedVhost("evict.test", cache("maxSize", "1MiB", "maxObjectSize", "512KiB"));

        for (int i = 0; i < 2; i++) {
            Reply huge = get("evict.test", "/huge");
            assertEquals(600 * 1024, huge.body().length());
            assertCacheStatus(huge, "Portico; fwd=miss; detail=size");
        }
        assertEquals(0, view(id).getInteger("entries"));

        for (int i = 1; i <= 4; i++) {
            assertCacheStatus(get("evict.test", "/big?n=" + i), STORED);
        }
        JsonObject view = view(id);
        long evictions = view.getLong("evictions");
        assertTrue(evictions >= 1, view::encode);
        assertEquals(4, view.getLong("entries") + evictions, view::encode);
        assertTrue(view.getLong("bytes") <= 1 << 20, view::encode);
        assertEquals(1 << 20, view.getLong("maxBytes"));
        assertEquals(evictions, Scrape.of(metrics).value("portico_cache_evictions_total{vhost=\"evict-test\"}"));
    }

    @Test
    void sharesAreScaledDownWhenTheyExceedTheGlobalBudget() {
        // The test profile keeps the default budget of 256M; two vhosts asking 192MiB each get 128MiB each.
        String one = cachedVhost("share-one.test", cache("maxSize", "192MiB"));
        String two = cachedVhost("share-two.test", cache("maxSize", "192MiB"));
        assertEquals(128L << 20, view(one).getLong("maxBytes"));
        assertEquals(128L << 20, view(two).getLong("maxBytes"));
        assertEquals(128L << 20, Scrape.of(metrics).value("portico_cache_max_bytes{vhost=\"share-one-test\"}"));

        Api.delete(two);
        assertEquals(192L << 20, view(one).getLong("maxBytes"));
    }

    @Test
    void purgeRemovesEverythingOnePathOrAPrefix() {
        for (String path : List.of("/img/a.png", "/img/b.png", "/doc", "/other")) {
            origin.on(path, request -> ScriptedOrigin.Reply.of(200, request.uri(), "Cache-Control", "max-age=60"));
        }
        String id = cachedVhost("purge.test");
        List<String> targets = List.of("/img/a.png", "/img/b.png", "/doc", "/doc?x=1", "/doc?x=2", "/other");
        for (String target : targets) {
            assertCacheStatus(get("purge.test", target), STORED);
        }
        assertEquals(6, view(id).getInteger("entries"));

        assertEquals(1, purge(id, "path", "/doc?x=1"));
        assertCacheStatus(get("purge.test", "/doc?x=1"), STORED);
        assertFromCache(get("purge.test", "/doc?x=2"), HIT_60);

        assertEquals(3, purge(id, "path", "/doc"));
        assertEquals(3, view(id).getInteger("entries"));
        assertCacheStatus(get("purge.test", "/doc"), STORED);
        assertCacheStatus(get("purge.test", "/doc?x=2"), STORED);

        assertEquals(2, purge(id, "prefix", "/img/"));
        assertCacheStatus(get("purge.test", "/img/a.png"), STORED);
        assertFromCache(get("purge.test", "/other"), HIT_60);

        assertEquals(4, purge(id));
        assertEquals(0, view(id).getInteger("entries"));
        assertEquals(0, view(id).getInteger("bodyBytes"));
        assertCacheStatus(get("purge.test", "/other"), STORED);
        assertEquals(2, origin.count("/other"));
        assertEquals(0, purge(id, "path", "/nothing-here"));
    }

    @Test
    void badPurgesAndUnknownVhostsAreProblems() {
        String id = cachedVhost("badpurge.test");
        assertInvalid(Api.given().queryParam("path", "/a").queryParam("prefix", "/b").delete(cachePath(id)),
                "path", "prefix").body("detail", equalTo("Give either path or prefix, not both"))
                .body("errors.reason", contains("cannot be combined with prefix", "cannot be combined with path"));
        assertInvalid(Api.given().queryParam("path", "a").delete(cachePath(id)), "path");
        assertInvalid(Api.given().queryParam("prefix", "img").delete(cachePath(id)), "prefix");

        String unknown = UUID.randomUUID().toString();
        assertProblem(Api.given().get(cachePath(unknown)), 404, "not-found");
        assertProblem(Api.given().delete(cachePath(unknown)), 404, "not-found");
        Api.given().get(cachePath(id)).then().statusCode(200).body("vhost", equalTo("badpurge-test"));
        Api.given().get(VHOSTS).then().body("name", hasItem("badpurge-test"));
    }
}
