package dev.portico.proxy.access;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.TrustedLoopback;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import dev.portico.testing.PostgresResource;

import java.net.URL;
import java.util.List;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A vhost's {@code access} rules against real clients bound to different loopback addresses: 127.0.0.1 and
 * 127.0.0.2 connect directly, 127.0.0.3 is a trusted proxy whose {@code X-Forwarded-For} names the client.
 */
@QuarkusTest
@TestProfile(TrustedLoopback.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class AccessRulesTest extends DataPlaneTestSupport {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private ScriptedOrigin origin;

    @AfterEach
    void closeOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    private String rules(String host, List<String> allow, List<String> deny, JsonObject... cache) {
        origin = ScriptedOrigin.start().on("/page", Reply.of(200, "page", "Cache-Control", "max-age=60"));
        JsonObject vhost = Api.vhost("guarded", host, origin.url()).put("access",
                new JsonObject().put("allow", new JsonArray(allow)).put("deny", new JsonArray(deny)));
        if (cache.length > 0) {
            vhost.put("cache", cache[0]);
        }
        return vhost(vhost);
    }

    private ProxyClient from(String localAddress) {
        return client("127.0.0.1", localAddress);
    }

    private static void assertDenied(ProxyClient.Reply reply, String client) {
        assertEquals(403, reply.status(), reply.text());
        JsonObject problem = reply.json();
        assertEquals("access_denied", problem.getString("reason"), problem.encode());
        String requestId = reply.header("X-Request-Id");
        assertEquals(requestId, problem.getString("requestId"), "the problem carries the request id");
        assertEquals(true, problem.getString("detail").contains(client), problem.encode());
    }

    @Test
    void anAllowedClientPassesAndADeniedOneGets403WithNothingUpstream() {
        rules("guarded.test", List.of("127.0.0.1"), List.of());
        double before = Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"access_denied\"}");

        assertEquals(200, from("127.0.0.1").get("guarded.test", "/page").status());
        assertDenied(from("127.0.0.2").get("guarded.test", "/page"), "127.0.0.2");

        assertEquals(1, origin.count("/page"), "the denied request never reached the origin");
        assertEquals(before + 1,
                Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"access_denied\"}"));
    }

    @Test
    void aCachedAnswerIsNotServedToADeniedClient() {
        rules("cached.test", List.of(), List.of("127.0.0.2/32"), Api.enabled());
        assertEquals(200, from("127.0.0.1").get("cached.test", "/page").status());
        ProxyClient.Reply hit = from("127.0.0.1").get("cached.test", "/page");
        assertEquals(200, hit.status());
        assertEquals(1, origin.count("/page"), "the second answer came from the cache");

        assertDenied(from("127.0.0.2").get("cached.test", "/page"), "127.0.0.2");
        assertEquals(1, origin.count("/page"));
    }

    @Test
    void denyBeatsAllow() {
        rules("both.test", List.of("127.0.0.0/8"), List.of("127.0.0.2"));
        assertEquals(200, from("127.0.0.1").get("both.test", "/page").status());
        assertDenied(from("127.0.0.2").get("both.test", "/page"), "127.0.0.2");
    }

    @Test
    void anIpv4MappedRuleMatchesAnIpv4Client() {
        rules("mapped.test", List.of("::ffff:127.0.0.1"), List.of("2001:db8::/32"));
        assertEquals(200, from("127.0.0.1").get("mapped.test", "/page").status());
        assertDenied(from("127.0.0.2").get("mapped.test", "/page"), "127.0.0.2");
    }

    @Test
    void behindATrustedProxyTheForwardedClientIsChecked() {
        rules("proxied.test", List.of("2001:db8::/32"), List.of("2001:db8:bad::/48"));
        ProxyClient proxy = from("127.0.0.3");

        assertEquals(200, proxy.send(HttpMethod.GET, "proxied.test", "/page",
                "X-Forwarded-For", "203.0.113.9, 2001:db8::5").status(), "the right-most entry is the client");
        assertDenied(proxy.send(HttpMethod.GET, "proxied.test", "/page",
                "X-Forwarded-For", "2001:db8::5, 2001:db8:bad::1"), "2001:db8:bad::1");
        assertDenied(proxy.send(HttpMethod.GET, "proxied.test", "/page"), "127.0.0.3");
        // An untrusted peer's header proves nothing: its own address is checked.
        assertDenied(from("127.0.0.2").send(HttpMethod.GET, "proxied.test", "/page",
                "X-Forwarded-For", "2001:db8::5"), "127.0.0.2");
        assertEquals(1, origin.count("/page"));
    }

    @Test
    void invalidEntriesAreNamedAndValidOnesNormalised() {
        JsonObject bad = Api.vhost("bad", "bad.test", "http://127.0.0.1:9").put("access", new JsonObject()
                .put("allow", new JsonArray().add("10.0.0.0/8").add("10.0.0.0/33").add("not-an-ip"))
                .put("deny", new JsonArray().add("2001:db8::/129").add("10.1.2.3/x")));
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"),
                "access.allow[1]", "access.allow[2]", "access.deny[0]", "access.deny[1]");

        JsonArray many = new JsonArray();
        for (int i = 0; i < 1001; i++) {
            many.add("10.0." + (i / 256) + "." + (i % 256));
        }
        assertInvalid(Api.given().body(Api.vhost("many", "many.test", "http://127.0.0.1:9")
                .put("access", new JsonObject().put("deny", many)).encode()).post("/api/v1/vhosts"), "access.deny");

        String id = vhost(Api.vhost("good", "good.test", "http://127.0.0.1:9").put("access", new JsonObject()
                .put("allow", new JsonArray().add("10.1.2.3/8").add("192.0.2.7").add("[2001:DB8::1]/32"))));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString());
        assertEquals(new JsonObject().put("allow", new JsonArray().add("10.0.0.0/8").add("192.0.2.7/32")
                .add("2001:db8::/32")).put("deny", new JsonArray()), shown.getJsonObject("access"));
        String none = vhost(Api.vhost("open", "open.test", "http://127.0.0.1:9"));
        assertNull(new JsonObject(Api.given().get("/api/v1/vhosts/" + none).asString()).getValue("access"));
    }
}
