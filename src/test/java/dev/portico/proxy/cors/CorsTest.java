package dev.portico.proxy.cors;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.Base64;
import java.util.List;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A vhost's and a route's {@code cors} against a real origin and client: preflights, actual requests, validation. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CorsTest extends DataPlaneTestSupport {

    private static final String APP = "https://app.example.com";

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private ScriptedOrigin origin;

    @AfterEach
    void closeOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    private static JsonObject policy(boolean credentials, String... origins) {
        return new JsonObject().put("allowOrigins", new JsonArray(List.of((Object[]) origins)))
                .put("allowMethods", new JsonArray().add("GET").add("PUT").add("DELETE"))
                .put("allowHeaders", new JsonArray().add("Content-Type").add("Authorization"))
                .put("exposeHeaders", new JsonArray().add("X-Total"))
                .put("allowCredentials", credentials).put("maxAge", "10m");
    }

    private void site(String host, JsonObject cors, JsonObject... extra) {
        origin = ScriptedOrigin.start()
                .on("/page", Reply.of(200, "page", "Access-Control-Allow-Origin", "*",
                        "Access-Control-Allow-Credentials", "true", "Vary", "Accept-Encoding, origin"))
                .on("/plain", Reply.of(200, "plain", "Vary", "Accept-Language"))
                .on("/cached", Reply.of(200, "cached", "Cache-Control", "max-age=60"));
        JsonObject vhost = Api.vhost(host.replace('.', '-'), host, origin.url()).put("cors", cors);
        for (JsonObject more : extra) {
            vhost.getMap().putAll(more.getMap());
        }
        vhost(vhost);
    }

    private ProxyClient.Reply preflight(String host, String path, String from, String method, String headers) {
        return headers == null
                ? client().send(HttpMethod.OPTIONS, host, path, "Origin", from, "Access-Control-Request-Method", method)
                : client().send(HttpMethod.OPTIONS, host, path, "Origin", from, "Access-Control-Request-Method", method,
                        "Access-Control-Request-Headers", headers);
    }

    private static void assertRefused(ProxyClient.Reply reply, String what) {
        assertEquals(403, reply.status(), reply.text());
        assertEquals("cors_refused", reply.json().getString("reason"));
        assertEquals(true, reply.json().getString("detail").contains(what), reply.text());
        assertNull(reply.header("Access-Control-Allow-Origin"));
        assertEquals("Origin, Access-Control-Request-Method, Access-Control-Request-Headers", reply.header("Vary"));
    }

    @Test
    void anAllowedPreflightIsAnsweredByPorticoAndNothingGoesUpstream() {
        site("pre.test", policy(true, APP));
        double before = Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"cors_preflight\"}");

        ProxyClient.Reply reply = preflight("pre.test", "/page", APP, "PUT", "content-type, authorization");

        assertEquals(204, reply.status(), reply.text());
        assertEquals(APP, reply.header("Access-Control-Allow-Origin"));
        assertEquals("true", reply.header("Access-Control-Allow-Credentials"));
        assertEquals("GET, PUT, DELETE", reply.header("Access-Control-Allow-Methods"));
        assertEquals("Content-Type, Authorization", reply.header("Access-Control-Allow-Headers"));
        assertEquals("600", reply.header("Access-Control-Max-Age"));
        assertEquals("Origin, Access-Control-Request-Method, Access-Control-Request-Headers", reply.header("Vary"));
        assertNull(reply.header("Content-Length"), "a 204 carries no Content-Length");
        assertEquals(0, reply.body().length());
        assertEquals(0, origin.count("/page"));
        assertEquals(before + 1,
                Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"cors_preflight\"}"));
        // A safelisted method needs no listing; OPTIONS without Access-Control-Request-Method is no preflight.
        assertEquals(204, preflight("pre.test", "/page", APP, "POST", null).status());
        assertEquals(200, client().send(HttpMethod.OPTIONS, "pre.test", "/page", "Origin", APP).status());
        assertEquals(1, origin.count("/page"));
    }

    @Test
    void aPreflightFromAnOriginOrForAMethodOrHeaderNotAllowedIsRefused() {
        site("refuse.test", policy(false, APP));
        assertRefused(preflight("refuse.test", "/page", "https://evil.example", "GET", null), "https://evil.example");
        assertRefused(preflight("refuse.test", "/page", APP, "PATCH", null), "PATCH");
        assertRefused(preflight("refuse.test", "/page", APP, "PUT", "content-type, x-secret"), "x-secret");
        assertRefused(preflight("refuse.test", "/page", "http://app.example.com", "GET", null), "http://app");
        assertEquals(0, origin.count("/page"));
    }

    @Test
    void aWildcardOriginTakesSubdomainsOfItsSuffixOnly() {
        site("wild.test", policy(false, "https://*.example.com"));
        assertEquals(204, preflight("wild.test", "/page", "https://app.example.com", "PUT", null).status());
        assertEquals(204, preflight("wild.test", "/page", "https://a.b.example.com", "PUT", null).status());
        assertEquals("https://a.b.example.com", preflight("wild.test", "/page", "https://a.b.example.com", "GET",
                null).header("Access-Control-Allow-Origin"));
        for (String other : List.of("https://example.com", "https://evilexample.com", "http://app.example.com",
                "https://app.example.com:8443", "https://app.example.com.evil.test", "null")) {
            assertRefused(preflight("wild.test", "/page", other, "PUT", null), other);
        }
    }

    @Test
    void anActualRequestGetsThePolicysFieldsInPlaceOfTheUpstreamsAndOriginInVary() {
        site("actual.test", policy(true, APP));
        ProxyClient.Reply allowed = client().send(HttpMethod.GET, "actual.test", "/page", "Origin", APP);
        assertEquals(200, allowed.status());
        assertEquals(APP, allowed.header("Access-Control-Allow-Origin"), "the upstream's * is replaced");
        assertEquals("true", allowed.header("Access-Control-Allow-Credentials"));
        assertEquals("X-Total", allowed.header("Access-Control-Expose-Headers"));
        assertEquals(List.of("Accept-Encoding, origin"), allowed.headers().getAll("Vary"),
                "Origin is listed once, whatever its case");

        ProxyClient.Reply other = client().send(HttpMethod.GET, "actual.test", "/page", "Origin", "https://evil.test");
        assertEquals(200, other.status(), "an actual request is served; the browser keeps its answer from the page");
        assertNull(other.header("Access-Control-Allow-Origin"), "the upstream's * does not reach a foreign origin");
        assertNull(other.header("Access-Control-Allow-Credentials"));

        ProxyClient.Reply plain = client().get("actual.test", "/plain");
        assertEquals(List.of("Accept-Language, Origin"), plain.headers().getAll("Vary"));
        assertNull(plain.header("Access-Control-Allow-Origin"));
    }

    @Test
    void anyOriginIsAnsweredWithAStarAndNoVary() {
        site("star.test", new JsonObject().put("allowOrigins", new JsonArray().add("*")));
        ProxyClient.Reply reply = client().send(HttpMethod.GET, "star.test", "/plain", "Origin", "https://x.test");
        assertEquals("*", reply.header("Access-Control-Allow-Origin"));
        assertNull(reply.header("Access-Control-Allow-Credentials"));
        assertEquals("Accept-Language", reply.header("Vary"));
        ProxyClient.Reply pre = preflight("star.test", "/plain", "https://x.test", "GET", null);
        assertEquals(204, pre.status());
        assertEquals("*", pre.header("Access-Control-Allow-Origin"));
    }

    @Test
    void aCachedAnswerGetsTheFieldsOfEachRequestsOrigin() {
        site("hit.test", policy(false, APP, "https://other.example.com"),
                new JsonObject().put("cache", Api.enabled()));
        assertEquals(APP, client().send(HttpMethod.GET, "hit.test", "/cached", "Origin", APP)
                .header("Access-Control-Allow-Origin"));
        ProxyClient.Reply hit = client().send(HttpMethod.GET, "hit.test", "/cached", "Origin",
                "https://other.example.com");
        assertEquals("https://other.example.com", hit.header("Access-Control-Allow-Origin"));
        assertEquals(1, origin.count("/cached"), "the second answer came from the cache");
        assertNull(client().get("hit.test", "/cached").header("Access-Control-Allow-Origin"));
    }

    @Test
    void aPreflightIsAnsweredInFrontOfARouteThatRefusesEveryoneAndItsRefusalCarriesTheFields() {
        site("guarded.test", policy(true, APP), new JsonObject().put("routes", new JsonArray()
                .add(new JsonObject().put("match", new JsonObject().put("path", "/api/*"))
                        .put("respond", new JsonObject().put("status", 401).put("body", "log in")))));
        ProxyClient.Reply pre = preflight("guarded.test", "/api/orders", APP, "DELETE", "authorization");
        assertEquals(204, pre.status(), "no credentials on a preflight: it is answered before the guard");
        assertEquals(APP, pre.header("Access-Control-Allow-Origin"));

        ProxyClient.Reply refused = client().send(HttpMethod.DELETE, "guarded.test", "/api/orders", "Origin", APP);
        assertEquals(401, refused.status());
        assertEquals(APP, refused.header("Access-Control-Allow-Origin"), "the page's script can read the 401");
    }

    @Test
    void aPreflightIsAnsweredInFrontOfBasicAuthAndTheChallengeCarriesTheFields() {
        site("staff.test", policy(true, APP), new JsonObject().put("basicAuth", new JsonObject().put("realm", "staff")
                .put("users", new JsonArray().add(new JsonObject().put("name", "ann").put("password", "s3cret-pw")))));
        ProxyClient.Reply pre = preflight("staff.test", "/page", APP, "PUT", "authorization");
        assertEquals(204, pre.status(), "browsers send no credentials on a preflight: " + pre.text());
        assertEquals(0, origin.count("/page"));

        ProxyClient.Reply challenged = client().send(HttpMethod.GET, "staff.test", "/page", "Origin", APP);
        assertEquals(401, challenged.status());
        assertEquals("auth_required", challenged.json().getString("reason"));
        assertEquals(APP, challenged.header("Access-Control-Allow-Origin"), "the page's script can read the 401");

        String basic = "Basic " + Base64.getEncoder().encodeToString("ann:s3cret-pw".getBytes());
        ProxyClient.Reply let = client().send(HttpMethod.GET, "staff.test", "/page", "Origin", APP,
                "Authorization", basic);
        assertEquals(200, let.status(), let.text());
        assertEquals(APP, let.header("Access-Control-Allow-Origin"));
        assertEquals(1, origin.count("/page"));
    }

    @Test
    void aRouteHasItsOwnPolicy() {
        site("routed.test", policy(false, APP), new JsonObject().put("routes", new JsonArray()
                .add(new JsonObject().put("match", new JsonObject().put("path", "/public/*"))
                        .put("cors", new JsonObject().put("allowOrigins", new JsonArray().add("*"))))
                .add(new JsonObject().put("match", new JsonObject().put("path", "/closed/*"))
                        .put("cors", new JsonObject().put("allowOrigins", new JsonArray())))));
        assertEquals("*", preflight("routed.test", "/public/x", "https://any.test", "GET", null)
                .header("Access-Control-Allow-Origin"));
        assertRefused(preflight("routed.test", "/x", "https://any.test", "GET", null), "https://any.test");
        ProxyClient.Reply closed = preflight("routed.test", "/closed/x", APP, "GET", null);
        assertNull(closed.header("Access-Control-Allow-Origin"), "an empty allowOrigins turns CORS off there");
    }

    @Test
    void invalidPoliciesAreNamedAndValidOnesNormalised() {
        JsonObject bad = Api.vhost("badcors", "badcors.test", "http://127.0.0.1:9").put("cors", new JsonObject()
                .put("allowOrigins", new JsonArray().add("https://ok.example").add("https://x.example/")
                        .add("*.example.com").add("https://*.com").add("*"))
                .put("allowMethods", new JsonArray().add("GET").add("BAD METHOD"))
                .put("allowHeaders", new JsonArray().add("X:Y"))
                .put("allowCredentials", true).put("maxAge", "2d"));
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"), "cors.allowOrigins[1]",
                "cors.allowOrigins[2]", "cors.allowOrigins[3]", "cors.allowOrigins[4]", "cors.allowMethods[1]",
                "cors.allowHeaders[0]", "cors.allowCredentials", "cors.maxAge");
        assertInvalid(Api.given().body(Api.vhost("nocors", "nocors.test", "http://127.0.0.1:9")
                .put("cors", new JsonObject().put("maxAge", "1m")).encode()).post("/api/v1/vhosts"),
                "cors.allowOrigins");
        assertInvalid(Api.given().body(Api.vhost("routecors", "routecors.test", "http://127.0.0.1:9")
                .put("routes", new JsonArray().add(new JsonObject().put("match", new JsonObject().put("path", "/a"))
                        .put("cors", new JsonObject().put("allowOrigins", new JsonArray().add("ftp:/x")))))
                .encode()).post("/api/v1/vhosts"), "routes[0].cors.allowOrigins[0]");

        String id = vhost(Api.vhost("goodcors", "goodcors.test", "http://127.0.0.1:9").put("cors", new JsonObject()
                .put("allowOrigins", new JsonArray().add("HTTPS://App.Example.com:443").add("http://x.test:8080"))
                .put("allowMethods", new JsonArray().add("put"))));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString()).getJsonObject("cors");
        assertEquals(new JsonObject().put("allowOrigins", new JsonArray().add("https://app.example.com")
                        .add("http://x.test:8080")).put("allowMethods", new JsonArray().add("PUT"))
                .put("allowHeaders", new JsonArray()).put("exposeHeaders", new JsonArray())
                .put("allowCredentials", false), shown);
    }
}
