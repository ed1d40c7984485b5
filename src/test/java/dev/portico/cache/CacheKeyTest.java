package dev.portico.cache;

import dev.portico.testing.Api;
import dev.portico.testing.CacheTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient.Reply;
import dev.portico.testing.ScriptedOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What a stored response is keyed by: the vhost, the host and the target, minus ignored query parameters. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CacheKeyTest extends CacheTestSupport {

    /** Every path answers with the Host and target the origin saw, cacheable for a minute. */
    private void echoHostAndTarget(String path) {
        origin.on(path, request -> ScriptedOrigin.Reply.of(200, request.getHeader("Host") + " " + request.uri(),
                "Cache-Control", "max-age=60"));
    }

    @Test
    void twoVhostsNeverSeeEachOthersResponses() {
        echoHostAndTarget("/same");
        cachedVhost("one.key.test");
        cachedVhost("two.key.test");

        assertReply(get("one.key.test", "/same"), 200, "one.key.test /same");
        assertReply(get("two.key.test", "/same"), 200, "two.key.test /same");
        assertEquals(2, origin.count("/same"));
        for (String host : new String[]{"one.key.test", "two.key.test"}) {
            Reply hit = get(host, "/same");
            assertReply(hit, 200, host + " /same");
            assertFromCache(hit, HIT_60);
        }
        assertEquals(2, origin.count("/same"));
    }

    @Test
    void aWildcardVhostKeepsItsHostsApart() {
        echoHostAndTarget("/page");
        Api.create(Api.vhost("wild", "*.wild.test", origin.url()).put("cache", cache()));

        assertReply(get("x.wild.test", "/page"), 200, "x.wild.test /page");
        assertReply(get("y.wild.test", "/page"), 200, "y.wild.test /page");
        assertEquals(2, origin.count("/page"));
        assertReply(get("x.wild.test", "/page"), 200, "x.wild.test /page");
        assertReply(get("y.wild.test", "/page"), 200, "y.wild.test /page");
        // Host names are case-insensitive.
        Reply upper = get("X.WILD.TEST", "/page");
        assertReply(upper, 200, "x.wild.test /page");
        assertFromCache(upper, HIT_60);
        assertEquals(2, origin.count("/page"));
    }

    @Test
    void ignoredQueryParametersAreLeftOutOfTheKeyOthersAreKept() {
        echoHostAndTarget("/list");
        cachedVhost("params.test", cache("ignoreQueryParams", new JsonArray().add("utm_source").add("utm_medium")));

        Reply first = get("params.test", "/list?id=1&utm_source=news");
        assertReply(first, 200, "params.test /list?id=1&utm_source=news");
        assertCacheStatus(first, STORED);
        for (String target : new String[]{"/list?id=1&utm_source=ads", "/list?utm_medium=mail&id=1",
                "/list?id=1"}) {
            Reply hit = get("params.test", target);
            assertReply(hit, 200, "params.test /list?id=1&utm_source=news");
            assertFromCache(hit, HIT_60);
        }
        assertEquals(1, origin.count("/list"));

        assertReply(get("params.test", "/list?id=2&utm_source=news"), 200, "params.test /list?id=2&utm_source=news");
        assertReply(get("params.test", "/list?id=1&page=2"), 200, "params.test /list?id=1&page=2");
        assertReply(get("params.test", "/list"), 200, "params.test /list");
        assertEquals(4, origin.count("/list"));
        // The origin always sees the query as the client sent it.
        assertEquals("/list?id=2&utm_source=news", origin.seen().stream()
                .filter(s -> s.uri().contains("id=2")).findFirst().orElseThrow().uri());
    }
}
