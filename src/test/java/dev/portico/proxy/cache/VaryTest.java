package dev.portico.proxy.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Variants selected by the request fields a response's Vary names (RFC 9111 section 4.1). */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class VaryTest extends CacheTestSupport {

    @Test
    void eachLanguageGetsItsOwnVariant() {
        origin.on("/greeting", request -> {
            String language = request.getHeader("Accept-Language");
            String body = language == null ? "hello?" : language.startsWith("fr") ? "bonjour" : "hello";
            return ScriptedOrigin.Reply.of(200, body, "Cache-Control", "max-age=60", "Vary", "Accept-Language",
                    "Content-Language", language == null ? "und" : language);
        });
        cachedVhost("vary.test");

        Reply english = get("vary.test", "/greeting", "Accept-Language", "en");
        assertReply(english, 200, "hello");
        assertCacheStatus(english, STORED);
        Reply french = get("vary.test", "/greeting", "Accept-Language", "fr");
        assertReply(french, 200, "bonjour");
        assertCacheStatus(french, STORED);
        assertEquals(2, origin.count("/greeting"));

        for (int i = 0; i < 2; i++) {
            Reply en = get("vary.test", "/greeting", "Accept-Language", "en");
            assertReply(en, 200, "hello");
            assertFromCache(en, HIT_60);
            assertEquals("en", en.header("Content-Language"));
            Reply fr = get("vary.test", "/greeting", "Accept-Language", "fr");
            assertReply(fr, 200, "bonjour");
            assertFromCache(fr, HIT_60);
            assertEquals("fr", fr.header("Content-Language"));
        }
        assertEquals(2, origin.count("/greeting"));

        // A request without the field is a third variant.
        assertReply(get("vary.test", "/greeting"), 200, "hello?");
        assertFromCache(get("vary.test", "/greeting"), HIT_60);
        assertEquals(3, origin.count("/greeting"));
    }

    @Test
    void equivalentAcceptLanguagesShareOneVariant() {
        origin.on("/same", request -> ScriptedOrigin.Reply.of(200, "for " + request.getHeader("Accept-Language"),
                "Cache-Control", "max-age=60", "Vary", "Accept-Language"));
        cachedVhost("vary-language.test");

        assertCacheStatus(get("vary-language.test", "/same", "Accept-Language", "en-US,en;q=0.9,de;q=0.5"), STORED);
        for (String same : new String[] {"en-us, en;q=0.90, de;q=0.5", "de;q=0.500, EN-US, en;Q=0.9"}) {
            Reply hit = get("vary-language.test", "/same", "Accept-Language", same);
            assertReply(hit, 200, "for en-US,en;q=0.9,de;q=0.5");
            assertFromCache(hit, HIT_60);
        }
        assertEquals(1, origin.count("/same"));

        // Another preference among equal weights is another variant.
        Reply other = get("vary-language.test", "/same", "Accept-Language", "en,en-US;q=0.9,de;q=0.5");
        assertReply(other, 200, "for en,en-US;q=0.9,de;q=0.5");
        assertCacheStatus(other, STORED);
        assertEquals(2, origin.count("/same"));
    }

    @Test
    void variantsAreSelectedByWhatTheClientSentEvenWhenTheVhostEditsTheRequest() {
        origin.on("/edited", request -> ScriptedOrigin.Reply.of(200,
                "language " + request.getHeader("Accept-Language"), "Cache-Control", "max-age=60",
                "Vary", "Accept-Language"));
        Api.create(Api.vhost("vary-edited", "vary-edited.test", origin.url()).put("cache", cache())
                .put("requestHeaders", new JsonObject().put("remove", new JsonArray().add("Accept-Language"))));

        assertCacheStatus(get("vary-edited.test", "/edited", "Accept-Language", "fr"), STORED);
        Reply hit = get("vary-edited.test", "/edited", "Accept-Language", "fr");
        assertReply(hit, 200, "language null");
        assertFromCache(hit, HIT_60);
        assertEquals(1, origin.count("/edited"));
    }

    @Test
    void varyStarIsNeverStored() {
        origin.on("/star", ScriptedOrigin.Reply.of(200, "star", "Cache-Control", "max-age=60", "Vary", "*"));
        cachedVhost("varystar.test");

        for (int i = 0; i < 2; i++) {
            Reply reply = get("varystar.test", "/star");
            assertReply(reply, 200, "star");
            assertCacheStatus(reply, "Portico; fwd=miss; detail=vary-star");
        }
        assertEquals(2, origin.count("/star"));
    }
}
