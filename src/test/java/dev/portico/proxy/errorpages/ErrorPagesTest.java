package dev.portico.proxy.errorpages;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A vhost's and a route's {@code errorPages} against real origins and clients. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ErrorPagesTest extends DataPlaneTestSupport {

    private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    private static final String HTML = "<h1>{{status}} {{title}}</h1><p>{{message}}</p><code>{{reason}}</code>"
            + "<small>{{requestId}}</small><i>{{path}}</i>";
    private static final String JSON = "{\"error\": \"{{reason}}\", \"status\": {{status}}, \"message\": "
            + "\"{{message}}\", \"id\": \"{{requestId}}\"}";
    /** A port nothing listens on: connections are refused. */
    private static final String DOWN = "http://127.0.0.1:9";

    private ScriptedOrigin origin;

    @AfterEach
    void closeOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    private static JsonObject pages(Object... more) {
        JsonObject pages = new JsonObject().put("html", HTML).put("json", JSON);
        for (int i = 0; i + 1 < more.length; i += 2) {
            pages.put((String) more[i], more[i + 1]);
        }
        return pages;
    }

    private static void assertFramed(ProxyClient.Reply reply) {
        assertEquals(Integer.toString(reply.body().length()), reply.header("Content-Length"), reply.text());
    }

    @Test
    void aLocalReplyIsTheHtmlPageForABrowserAndTheJsonOneForOtherClients() {
        vhost(Api.vhost("denied", "denied.test", DOWN).put("access", new JsonObject()
                .put("deny", new JsonArray().add("127.0.0.1"))).put("errorPages", pages()));

        ProxyClient.Reply html = client().send(HttpMethod.GET, "denied.test", "/page", "Accept", BROWSER);
        assertEquals(403, html.status());
        assertEquals("text/html; charset=utf-8", html.header("Content-Type"));
        assertEquals("no-store", html.header("Cache-Control"));
        assertTrue(html.header("Vary").contains("Accept"), html.header("Vary"));
        assertFramed(html);
        String id = html.header("X-Request-Id");
        assertEquals("<h1>403 Forbidden</h1><p>The vhost&#39;s access rules do not allow the client address "
                + "127.0.0.1</p><code>access_denied</code><small>" + id + "</small><i>/page</i>", html.text());

        for (String accept : new String[] {null, "*/*", "application/json", "text/html;q=0.5, application/json"}) {
            ProxyClient.Reply json = accept == null ? client().get("denied.test", "/page")
                    : client().send(HttpMethod.GET, "denied.test", "/page", "Accept", accept);
            assertEquals(403, json.status());
            assertEquals("application/json", json.header("Content-Type"), String.valueOf(accept));
            assertFramed(json);
            JsonObject body = json.json();
            assertEquals("access_denied", body.getString("error"));
            assertEquals(403, body.getInteger("status"));
            assertEquals(json.header("X-Request-Id"), body.getString("id"));
        }
    }

    @Test
    void upstreamFailuresAndTimeoutsGetThePage() {
        origin = ScriptedOrigin.start().on("/slow", Reply.of(200, "late").delayed(3000));
        vhost(Api.vhost("down", "down.test", DOWN).put("errorPages", pages()));
        vhost(Api.vhost("slow", "slow.test", origin.url()).put("readTimeout", "300ms").put("errorPages", pages()));

        ProxyClient.Reply refused = client().send(HttpMethod.GET, "down.test", "/x", "Accept", BROWSER);
        assertEquals(502, refused.status());
        assertTrue(refused.text().startsWith("<h1>502 Bad Gateway</h1>"), refused.text());
        assertTrue(refused.text().contains("<code>upstream_connect_failure</code>"), refused.text());

        ProxyClient.Reply late = client().send(HttpMethod.GET, "slow.test", "/slow", "Accept", "application/json");
        assertEquals(504, late.status());
        assertEquals("upstream_response_timeout", late.json().getString("error"));
        assertFramed(late);
    }

    @Test
    void aHostileValueIsEscapedForThePagesLanguage() {
        vhost(Api.vhost("hostile", "hostile.test", DOWN).put("errorPages", pages())
                .put("cors", new JsonObject().put("allowOrigins", new JsonArray().add("https://app.example.com"))));
        String origin = "https://x\"><script>alert(1)</script>\\\", \"admin\": true, \"a\": \"";
        ProxyClient.Reply html = client().send(HttpMethod.OPTIONS, "hostile.test", "/x", "Origin", origin,
                "Access-Control-Request-Method", "GET", "Accept", BROWSER);
        assertEquals(403, html.status());
        assertFalse(html.text().contains("<script>"), html.text());
        assertTrue(html.text().contains("https://x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\&quot;, "
                + "&quot;admin&quot;: true"), html.text());

        ProxyClient.Reply json = client().send(HttpMethod.OPTIONS, "hostile.test", "/x", "Origin", origin,
                "Access-Control-Request-Method", "GET", "Accept", "application/json");
        JsonObject body = json.json();
        assertEquals("cors_refused", body.getString("error"));
        assertNull(body.getValue("admin"), "the value stayed inside its string: " + json.text());
        assertTrue(body.getString("message").endsWith(origin), body.getString("message"));
    }

    @Test
    void anUpstreamErrorIsReplacedOnlyWhenAskedItsStatusAndFieldsKept() {
        String big = "stack trace ".repeat(400);
        origin = ScriptedOrigin.start()
                .on("/fail", Reply.of(500, big, "Content-Type", "text/plain", "X-Upstream", "kept", "ETag", "\"e1\""))
                .on("/missing", Reply.of(404, "no such page"));
        JsonObject compression = Api.enabled();
        vhost(Api.vhost("replaced", "replaced.test", origin.url()).put("compression", compression)
                .put("errorPages", pages("upstreamErrors", true)));
        vhost(Api.vhost("kept", "kept.test", origin.url()).put("compression", compression)
                .put("errorPages", pages()));

        ProxyClient.Reply page = client().send(HttpMethod.GET, "replaced.test", "/fail", "Accept", BROWSER,
                "Accept-Encoding", "gzip");
        assertEquals(500, page.status());
        assertEquals("text/html; charset=utf-8", page.header("Content-Type"));
        assertEquals("kept", page.header("X-Upstream"));
        assertNull(page.header("ETag"), "the validator was the upstream body's");
        assertNull(page.header("Content-Encoding"), "the page goes as it is");
        assertFramed(page);
        assertEquals("<h1>500 Internal Server Error</h1><p>The upstream answered 500</p><code>upstream_error</code>"
                + "<small>" + page.header("X-Request-Id") + "</small><i>/fail</i>", page.text());

        ProxyClient.Reply json = client().send(HttpMethod.GET, "replaced.test", "/fail");
        assertEquals(500, json.status());
        assertEquals("upstream_error", json.json().getString("error"));
        assertFramed(json);

        ProxyClient.Reply head = client().send(HttpMethod.HEAD, "replaced.test", "/fail", "Accept", BROWSER);
        assertEquals(500, head.status());
        assertEquals(0, head.body().length(), "HEAD has no body");
        assertEquals(Integer.toString(page.body().length()), head.header("Content-Length"));

        assertEquals("no such page", client().send(HttpMethod.GET, "replaced.test", "/missing", "Accept", BROWSER)
                .text(), "an upstream 4xx is its own");
        ProxyClient.Reply untouched = client().send(HttpMethod.GET, "kept.test", "/fail", "Accept", BROWSER);
        assertEquals(500, untouched.status());
        assertEquals(big, untouched.text(), "without upstreamErrors the upstream's body is kept");
        assertEquals("gzip", client().send(HttpMethod.GET, "kept.test", "/fail", "Accept", BROWSER,
                "Accept-Encoding", "gzip").header("Content-Encoding"), "such a 500 is compressed where it is kept");
        assertEquals(5, origin.count("/fail"), "each request went upstream once: a 500 is not retried");
    }

    @Test
    void statusesNarrowThePagesAndAClientWithoutAPageGetsTheDefault() {
        vhost(Api.vhost("narrow", "narrow.test", DOWN).put("access", new JsonObject()
                .put("deny", new JsonArray().add("127.0.0.2"))).put("errorPages", new JsonObject()
                .put("html", HTML).put("statuses", new JsonArray().add(502))));
        ProxyClient.Reply page = client().send(HttpMethod.GET, "narrow.test", "/x", "Accept", BROWSER);
        assertEquals(502, page.status());
        assertTrue(page.text().startsWith("<h1>502"), page.text());
        ProxyClient.Reply problem = client().send(HttpMethod.GET, "narrow.test", "/x", "Accept", "application/json");
        assertEquals("application/problem+json", problem.header("Content-Type"), "no json page: the default");
        ProxyClient.Reply denied = client("127.0.0.1", "127.0.0.2").send(HttpMethod.GET, "narrow.test", "/x",
                "Accept", BROWSER);
        assertEquals(403, denied.status());
        assertEquals("application/problem+json", denied.header("Content-Type"), "403 is not in statuses");
    }

    @Test
    void aHeadRequestsLocalReplyHasTheLengthAndNoBody() {
        vhost(Api.vhost("headdown", "headdown.test", DOWN).put("errorPages", pages()));
        ProxyClient.Reply get = client().send(HttpMethod.GET, "headdown.test", "/x", "Accept", BROWSER);
        ProxyClient.Reply head = client().send(HttpMethod.HEAD, "headdown.test", "/x", "Accept", BROWSER);
        assertEquals(502, head.status());
        assertEquals(0, head.body().length());
        assertEquals("text/html; charset=utf-8", head.header("Content-Type"));
        assertEquals(get.header("Content-Length"), head.header("Content-Length"));
    }

    @Test
    void aRouteHasItsOwnPages() {
        vhost(Api.vhost("routed", "routed.test", DOWN).put("routes", new JsonArray()
                .add(new JsonObject().put("match", new JsonObject().put("path", "/api/*"))
                        .put("errorPages", new JsonObject().put("json", "{\"api\": \"{{reason}}\"}")))));
        ProxyClient.Reply api = client().get("routed.test", "/api/x");
        assertEquals(502, api.status());
        assertEquals(new JsonObject().put("api", "upstream_connect_failure"), api.json());
        assertEquals("application/problem+json", client().get("routed.test", "/x").header("Content-Type"),
                "outside the route: the vhost's default");
    }

    @Test
    void invalidPagesAreNamedAndValidOnesNormalised() {
        JsonObject bad = Api.vhost("badpages", "badpages.test", DOWN).put("errorPages", new JsonObject()
                .put("html", "<p>{{stauts}}</p>").put("json", "{\"status\": {{reason}}}")
                .put("statuses", new JsonArray().add(404).add(302)));
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"), "errorPages.html", "errorPages.json",
                "errorPages.statuses[1]");
        assertInvalid(Api.given().body(Api.vhost("bigpage", "bigpage.test", DOWN).put("errorPages", new JsonObject()
                .put("html", "x".repeat(64 * 1024 + 1))).encode()).post("/api/v1/vhosts"), "errorPages.html");
        assertInvalid(Api.given().body(Api.vhost("nopage", "nopage.test", DOWN).put("errorPages", new JsonObject()
                .put("upstreamErrors", true)).encode()).post("/api/v1/vhosts"), "errorPages");
        assertInvalid(Api.given().body(Api.vhost("routepage", "routepage.test", DOWN).put("routes", new JsonArray()
                .add(new JsonObject().put("match", new JsonObject().put("path", "/a"))
                        .put("errorPages", new JsonObject().put("json", "{")))).encode())
                .post("/api/v1/vhosts"), "routes[0].errorPages.json");

        String id = vhost(Api.vhost("goodpages", "goodpages.test", DOWN).put("errorPages", new JsonObject()
                .put("html", HTML).put("statuses", new JsonArray().add(504).add(502).add(504))));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString())
                .getJsonObject("errorPages");
        assertEquals(new JsonObject().put("html", HTML).put("statuses", new JsonArray().add(502).add(504))
                .put("upstreamErrors", false), shown);
    }
}
