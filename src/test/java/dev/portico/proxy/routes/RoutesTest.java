package dev.portico.proxy.routes;

import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.AccessLogLines;
import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawHttp;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A vhost's routes against real origins and clients: matching, first match wins, rewrites, redirects, responses. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RoutesTest extends DataPlaneTestSupport {

    private final List<ScriptedOrigin> origins = new ArrayList<>();

    @Inject
    AccessLog accessLog;

    @AfterEach
    void closeOrigins() {
        origins.forEach(ScriptedOrigin::close);
        origins.clear();
    }

    /** An origin that answers every path with its name and the target it received. */
    private ScriptedOrigin echoing(String name) {
        ScriptedOrigin origin = ScriptedOrigin.start();
        origins.add(origin);
        return origin.on("*", request -> Reply.of(200, name + " " + request.uri()));
    }

    private static JsonObject route(String path, Object... pairs) {
        JsonObject route = new JsonObject().put("match", new JsonObject().put("path", path));
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            route.put((String) pairs[i], pairs[i + 1]);
        }
        return route;
    }

    private static JsonArray upstream(ScriptedOrigin origin) {
        return new JsonArray().add(new JsonObject().put("url", origin.url()));
    }

    private JsonObject logLine(ProxyClient.Reply reply) {
        return AccessLogLines.ofRequest(accessLog.file().orElseThrow(), reply.header("X-Request-Id"));
    }

    private String raw(String host, String target) throws Exception {
        return RawHttp.exchange(dataPlane.port(), "GET " + target + " HTTP/1.1\r\nHost: " + host
                + "\r\nConnection: close\r\n\r\n");
    }

    @Test
    void aPrefixRouteStripsItsPrefixForItsOwnUpstreamAndTheRestGoesToTheVhost() throws Exception {
        ScriptedOrigin site = echoing("site");
        ScriptedOrigin api = echoing("api");
        vhost(Api.vhost("shop", "shop.test", site.url()).put("routes", new JsonArray()
                .add(route("/api/*", "stripPrefix", "/api", "upstreams", upstream(api)))));
        ProxyClient client = client();
        String id = Api.given().get("/api/v1/vhosts").then().extract().path("find { it.name == 'shop' }.id");
        List<String> shown = Api.given().get("/api/v1/vhosts/" + id + "/upstreams").then().statusCode(200)
                .extract().path("upstreams.url");
        assertEquals(List.of(site.url(), api.url() + " (route route-1)"), shown,
                "the route's own upstreams are shown with the vhost's");

        ProxyClient.Reply routed = client.get("shop.test", "/api/orders?x=1");
        assertEquals("api /orders?x=1", routed.text());
        assertEquals("api /", client.get("shop.test", "/api").text(), "the prefix itself is the route's too");
        ProxyClient.Reply unrouted = client.get("shop.test", "/apix");
        assertEquals("site /apix", unrouted.text(), "a prefix ends at a segment");
        assertEquals("route-1", logLine(routed).getString("route"), "the access log names the route");
        assertTrue(logLine(unrouted).containsKey("route"));
        assertEquals(null, logLine(unrouted).getValue("route"), "null when the vhost's own settings served");
        assertEquals("site /", client.get("shop.test", "/").text());
        // The kept segments are the client's own bytes: nothing decoded, nothing encoded again.
        assertTrue(raw("shop.test", "/api/a%20b/c%2fd/%C3%A9?q=%41").contains("api /a%20b/c%2fd/%C3%A9?q=%41"));
    }

    @Test
    void theFirstRouteThatMatchesWinsWhateverItsPrefixLength() {
        ScriptedOrigin site = echoing("site");
        ScriptedOrigin first = echoing("first");
        ScriptedOrigin second = echoing("second");
        vhost(Api.vhost("order", "order.test", site.url()).put("routes", new JsonArray()
                .add(route("/a/*", "upstreams", upstream(first)))
                .add(route("/a/b/*", "upstreams", upstream(second)))
                .add(route("/c/d/*", "upstreams", upstream(second)))
                .add(route("/c/*", "upstreams", upstream(first)))));
        ProxyClient client = client();
        assertEquals("first /a/b/x", client.get("order.test", "/a/b/x").text());
        assertEquals("second /c/d/x", client.get("order.test", "/c/d/x").text());
        assertEquals("first /c/x", client.get("order.test", "/c/x").text());
    }

    @Test
    void routesMatchOnExactPathsGlobsExpressionsMethodsHeadersAndQuery() {
        ScriptedOrigin site = echoing("site");
        ScriptedOrigin hit = echoing("hit");
        JsonArray to = upstream(hit);
        vhost(Api.vhost("kinds", "kinds.test", site.url()).put("routes", new JsonArray()
                .add(route("/exact", "upstreams", to))
                .add(route("/files/*.pdf", "upstreams", to))
                .add(new JsonObject().put("match", new JsonObject().put("pathRegex", "^/u/[0-9]+$"))
                        .put("upstreams", to))
                .add(new JsonObject().put("match", new JsonObject().put("path", "/m/*")
                        .put("methods", new JsonArray().add("POST"))).put("upstreams", to))
                .add(new JsonObject().put("match", new JsonObject().put("path", "/h/*")
                        .put("headers", new JsonObject().put("X-Beta", "1"))).put("upstreams", to))
                .add(new JsonObject().put("match", new JsonObject().put("path", "/q/*")
                        .put("query", new JsonObject().put("version", "2"))).put("upstreams", to))));
        ProxyClient client = client();
        assertEquals("hit /exact", client.get("kinds.test", "/exact").text());
        assertEquals("site /exact/more", client.get("kinds.test", "/exact/more").text());
        assertEquals("hit /files/a.pdf", client.get("kinds.test", "/files/a.pdf").text());
        assertEquals("site /files/a/b.pdf", client.get("kinds.test", "/files/a/b.pdf").text(),
                "a glob's * stays within a segment");
        assertEquals("hit /u/42", client.get("kinds.test", "/u/42").text());
        assertEquals("site /u/42x", client.get("kinds.test", "/u/42x").text());
        assertEquals("site /m/x", client.get("kinds.test", "/m/x").text());
        assertEquals("hit /m/x", client.send(HttpMethod.POST, "kinds.test", "/m/x").text());
        assertEquals("site /h/x", client.get("kinds.test", "/h/x").text());
        assertEquals("hit /h/x", client.send(HttpMethod.GET, "kinds.test", "/h/x", "X-Beta", "1").text());
        assertEquals("site /q/x?version=1", client.get("kinds.test", "/q/x?version=1").text());
        assertEquals("hit /q/x?a=b&version=2", client.get("kinds.test", "/q/x?a=b&version=2").text());
    }

    @Test
    void redirectAndRespondRoutesAreAnsweredByPortico() throws Exception {
        ScriptedOrigin site = echoing("site");
        vhost(Api.vhost("answers", "answers.test", site.url()).put("routes", new JsonArray()
                .add(route("/old/*", "redirect", new JsonObject().put("status", 308)
                        .put("location", "https://$host/new/$path?$query")))
                .add(route("/healthz", "respond", new JsonObject().put("body", "fine")))
                .add(route("/gone", "respond", new JsonObject().put("status", 410).put("body", "{\"gone\":true}")
                        .put("contentType", "application/json")))));
        ProxyClient client = client();

        ProxyClient.Reply moved = client.get("answers.test", "/old/a/b%20c?x=1");
        assertEquals(308, moved.status());
        assertEquals("https://answers.test/new/a/b%20c?x=1", moved.header("Location"));
        assertEquals("https://answers.test/new/", client.get("answers.test", "/old").header("Location"),
                "no query: ?$query goes whole");
        // Decoded text goes back encoded: a %0d%0a in the path cannot split the Location header.
        String split = raw("answers.test", "/old/a%0d%0aSet-Cookie:x=1");
        assertTrue(split.startsWith("HTTP/1.1 400"), split);
        String injected = raw("answers.test", "/old/%22%3Cscript%3E");
        assertTrue(injected.toLowerCase().contains("location: https://answers.test/new/%22%3cscript%3e"), injected);

        ProxyClient.Reply fine = client.get("answers.test", "/healthz");
        assertEquals(200, fine.status());
        assertEquals("fine", fine.text());
        assertEquals("text/plain; charset=utf-8", fine.header("Content-Type"));
        ProxyClient.Reply gone = client.get("answers.test", "/gone");
        assertEquals(410, gone.status());
        assertEquals("application/json", gone.header("Content-Type"));
        assertEquals(0, site.seen().size(), "nothing went upstream");
    }

    @Test
    void rewritesAddAPrefixOrReplaceByAnExpression() {
        ScriptedOrigin site = echoing("site");
        vhost(Api.vhost("rewrites", "rewrites.test", site.url()).put("routes", new JsonArray()
                .add(route("/v1/*", "stripPrefix", "/v1", "addPrefix", "/api/v2"))
                .add(route("/legacy/*", "addPrefix", "/archive"))
                .add(new JsonObject().put("match", new JsonObject().put("pathRegex", "^/u/([0-9]+)/(.*)$"))
                        .put("rewrite", new JsonObject().put("regex", "^/u/([0-9]+)/(.*)$")
                                .put("replacement", "/users/$1/$2")))));
        ProxyClient client = client();
        assertEquals("site /api/v2/items?a=1", client.get("rewrites.test", "/v1/items?a=1").text());
        assertEquals("site /api/v2", client.get("rewrites.test", "/v1").text());
        assertEquals("site /archive/legacy/x", client.get("rewrites.test", "/legacy/x").text());
        assertEquals("site /users/42/a%20b", client.get("rewrites.test", "/u/42/a%20b").text());
    }

    @Test
    void aRouteOverridesTheVhostsSettingsForItsRequestsOnly() {
        ScriptedOrigin site = echoing("site");
        vhost(Api.vhost("overrides", "overrides.test", site.url())
                .put("responseHeaders", new JsonObject().put("set", new JsonObject().put("X-Where", "vhost")))
                .put("routes", new JsonArray().add(route("/special/*", "responseHeaders",
                        new JsonObject().put("set", new JsonObject().put("X-Where", "route"))))));
        ProxyClient client = client();
        assertEquals("route", client.get("overrides.test", "/special/x").header("X-Where"));
        assertEquals("vhost", client.get("overrides.test", "/other").header("X-Where"));
        assertEquals("site /special/x", client.get("overrides.test", "/special/x").text(),
                "the route without upstreams of its own uses the vhost's");
    }

    @Test
    void aCachingRouteKeysByTheClientsUrlAndRefreshesTheRewrittenPath() {
        ScriptedOrigin site = echoing("site");
        ScriptedOrigin a = ScriptedOrigin.start();
        ScriptedOrigin b = ScriptedOrigin.start();
        origins.add(a);
        origins.add(b);
        a.inTurn("/x", Reply.of(200, "a-old", "Cache-Control", "max-age=0, stale-while-revalidate=60"),
                Reply.of(200, "a-new", "Cache-Control", "max-age=60"));
        b.on("/x", Reply.of(200, "b", "Cache-Control", "max-age=60"));
        JsonObject cache = Api.enabled();
        vhost(Api.vhost("cached", "cached.test", site.url()).put("routes", new JsonArray()
                .add(route("/a/*", "stripPrefix", "/a", "upstreams", upstream(a), "cache", cache))
                .add(route("/b/*", "stripPrefix", "/b", "upstreams", upstream(b), "cache", cache))));
        ProxyClient client = client();
        assertEquals("a-old", client.get("cached.test", "/a/x").text());
        assertEquals("b", client.get("cached.test", "/b/x").text(), "the same rewritten path, another entry");
        assertEquals("b", client.get("cached.test", "/b/x").text());
        assertEquals(1, b.count("/x"), "the second /b/x was a hit");
        // Stale: served at once, refreshed in the background through the route's rewrite.
        assertEquals("a-old", client.get("cached.test", "/a/x").text());
        dev.portico.testing.Eventually.within(java.time.Duration.ofSeconds(5),
                () -> assertEquals("a-new", client.get("cached.test", "/a/x").text()));
        assertEquals(List.of("/x", "/x"), a.seen().stream().map(ScriptedOrigin.Seen::uri).toList());
    }

    @Test
    void aStaticRouteServesOnlyFilesFromItsRootWithItsPrefixStripped() throws Exception {
        java.nio.file.Path root = java.nio.file.Files.createTempDirectory("route-static");
        java.nio.file.Files.writeString(root.resolve("app.js"), "console.log(1)");
        ScriptedOrigin site = echoing("site");
        vhost(Api.vhost("files", "files.test", site.url()).put("routes", new JsonArray()
                .add(route("/assets/*", "stripPrefix", "/assets", "static",
                        new JsonObject().put("root", root.toString())))));
        ProxyClient client = client();
        assertEquals("console.log(1)", client.get("files.test", "/assets/app.js").text());
        assertEquals(404, client.get("files.test", "/assets/missing.js").status(), "no fallback upstream");
        assertEquals("site /other", client.get("files.test", "/other").text());
        assertEquals(0, site.count("/assets/missing.js"));
    }
}
