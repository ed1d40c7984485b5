package dev.portico.proxy.forwardauth;

import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.RawOrigin;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Forward auth against real auth services on loopback: one that decides by the session cookie, one that is slow,
 * one that is down, and ones that answer oddly. The origin counts what got through.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ForwardAuthTest extends DataPlaneTestSupport {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private final List<AutoCloseable> servers = new ArrayList<>();
    private ScriptedOrigin origin;

    @AfterEach
    void closeServers() throws Exception {
        for (AutoCloseable server : servers) {
            server.close();
        }
        servers.clear();
    }

    private <T extends AutoCloseable> T kept(T server) {
        servers.add(server);
        return server;
    }

    /** An auth service that knows the sessions {@code s=ann} (allowed as ann) and {@code s=anon} (allowed, no user). */
    private ScriptedOrigin sessionAuth() {
        return kept(ScriptedOrigin.start().on("/check", request -> {
            String cookie = request.getHeader("Cookie");
            if ("s=ann".equals(cookie)) {
                return Reply.of(200, "ok", "X-User", "ann", "X-Groups", "staff");
            }
            if ("s=anon".equals(cookie)) {
                return Reply.of(200, "ok");
            }
            if ("s=banned".equals(cookie)) {
                return Reply.of(403, "{\"error\":\"banned\"}", "Content-Type", "application/json");
            }
            if ("s=browser".equals(cookie)) {
                return Reply.of(302, "", "Location", "https://login.test/?rd=x", "Set-Cookie", "state=abc; Secure");
            }
            return Reply.of(401, "log in first", "WWW-Authenticate", "Bearer realm=\"auth\"", "Content-Type",
                    "text/plain");
        }));
    }

    private JsonObject forwardAuth(String url, Object... pairs) {
        JsonObject block = new JsonObject().put("url", url);
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            block.put((String) pairs[i], pairs[i + 1]);
        }
        return block;
    }

    private void guarded(String host, JsonObject forwardAuth) {
        origin = kept(ScriptedOrigin.start().on("*", Reply.of(200, "secret")));
        vhost(Api.vhost(host.replace(".test", ""), host, origin.url()).put("forwardAuth", forwardAuth));
    }

    private ProxyClient.Reply get(String host, String uri, String... headers) {
        return client().send(HttpMethod.GET, host, uri, headers);
    }

    private double replies(String reason) {
        return Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"" + reason + "\"}");
    }

    @Test
    void anAllowedRequestGoesOnWithTheServicesUserAndAForgedUserIsRemoved() {
        ScriptedOrigin auth = sessionAuth();
        guarded("fa.test", forwardAuth(auth.url() + "/check", "copyHeaders", new JsonArray().add("X-User")));

        ProxyClient.Reply reply = client().send(HttpMethod.POST, "fa.test", "/page?x=1", "Cookie", "s=ann",
                "X-User", "admin", "X-Other", "private");
        assertEquals(200, reply.status(), reply.text());
        MultiMap upstream = origin.last("/page").headers();
        assertEquals(List.of("ann"), upstream.getAll("X-User"), "the service's user replaces the client's");
        assertNull(upstream.get("X-Groups"), "only copyHeaders are copied");

        ScriptedOrigin.Seen asked = auth.last("/check");
        assertEquals("GET", asked.method(), "the auth request is a GET whatever the client's method");
        assertEquals("POST", asked.headers().get("X-Forwarded-Method"));
        assertEquals("/page?x=1", asked.headers().get("X-Forwarded-Uri"));
        assertEquals("fa.test", asked.headers().get("X-Forwarded-Host"));
        assertEquals("http", asked.headers().get("X-Forwarded-Proto"));
        assertEquals("127.0.0.1", asked.headers().get("X-Forwarded-For"));
        assertEquals("s=ann", asked.headers().get("Cookie"));
        assertNull(asked.headers().get("X-Other"), "only requestHeaders are sent to the service");

        assertEquals(200, get("fa.test", "/page", "Cookie", "s=anon", "X-User", "admin").status());
        assertNull(origin.last("/page").headers().get("X-User"),
                "a forged X-User is removed even when the service names no user");
    }

    @Test
    void a401IsRelayedWithItsChallengeAndNothingReachesTheOrigin() {
        ScriptedOrigin auth = sessionAuth();
        guarded("deny.test", forwardAuth(auth.url() + "/check"));
        double before = replies("forward_auth_denied");

        ProxyClient.Reply reply = get("deny.test", "/page");
        assertEquals(401, reply.status());
        assertEquals("Bearer realm=\"auth\"", reply.header("WWW-Authenticate"));
        assertEquals("log in first", reply.text());
        assertEquals("text/plain", reply.header("Content-Type"));
        assertEquals(0, origin.count("/page"));
        assertEquals(before + 1, replies("forward_auth_denied"));
    }

    @Test
    void a403AndARedirectToTheLoginPageAreRelayed() {
        ScriptedOrigin auth = sessionAuth();
        guarded("login.test", forwardAuth(auth.url() + "/check"));

        ProxyClient.Reply banned = get("login.test", "/page", "Cookie", "s=banned");
        assertEquals(403, banned.status());
        assertEquals("banned", banned.json().getString("error"));

        ProxyClient.Reply login = get("login.test", "/page", "Cookie", "s=browser");
        assertEquals(302, login.status());
        assertEquals("https://login.test/?rd=x", login.header("Location"));
        assertEquals("state=abc; Secure", login.header("Set-Cookie"));
        assertEquals(0, origin.count("/page"));
    }

    @Test
    void aSlowServiceIsGivenUpOnWith504() {
        ScriptedOrigin auth = kept(ScriptedOrigin.start().on("/check", Reply.of(200, "late").delayed(3000)));
        guarded("slow.test", forwardAuth(auth.url() + "/check", "timeout", "300ms"));
        double before = replies("forward_auth_timeout");

        long start = System.nanoTime();
        ProxyClient.Reply reply = get("slow.test", "/page");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertEquals(504, reply.status(), reply.text());
        assertEquals("forward_auth_timeout", reply.json().getString("reason"));
        assertTrue(tookMs < 2500, "answered at the timeout, not when the service answered: " + tookMs + " ms");
        assertEquals(0, origin.count("/page"));
        assertEquals(before + 1, replies("forward_auth_timeout"));
    }

    @Test
    void aServiceThatIsDownFailsClosedWith502() throws Exception {
        guarded("down.test", forwardAuth("http://127.0.0.1:" + BrokenOrigins.refusingPort() + "/check"));
        ProxyClient.Reply reply = get("down.test", "/page", "Cookie", "s=ann");
        assertEquals(502, reply.status());
        assertEquals("forward_auth_error", reply.json().getString("reason"));
        assertTrue(!reply.text().contains("s=ann"), "the problem never echoes the credentials");
        assertEquals(0, origin.count("/page"));
    }

    @Test
    void oddAnswersFailClosedAndOnly2xxLetsThrough() throws Exception {
        ScriptedOrigin auth = kept(ScriptedOrigin.start()
                .on("/no-content", Reply.of(204, ""))
                .on("/error", Reply.of(500, "boom"))
                .on("/unavailable", Reply.of(503, "later"))
                .on("/not-modified", Reply.of(304, ""))
                .on("/teapot", Reply.of(418, "short and stout")));
        BrokenOrigins.Garbage garbage = kept(new BrokenOrigins.Garbage());
        RawOrigin interimOnly = kept(RawOrigin.start(request -> {
            request.write("HTTP/1.1 100 Continue\r\n\r\n");
            request.socket().close();
        }));
        origin = kept(ScriptedOrigin.start().on("*", Reply.of(200, "secret")));
        JsonArray routes = new JsonArray();
        for (String path : List.of("no-content", "error", "unavailable", "not-modified", "teapot", "missing")) {
            routes.add(route("/" + path, forwardAuth(auth.url() + "/" + path)));
        }
        routes.add(route("/garbage", forwardAuth("http://127.0.0.1:" + garbage.port() + "/check")));
        routes.add(route("/interim", forwardAuth(interimOnly.url() + "/check")));
        vhost(Api.vhost("odd", "odd.test", origin.url()).put("routes", routes));

        assertEquals(200, get("odd.test", "/no-content").status(), "204 is a 2xx: allowed");
        for (String path : List.of("/error", "/unavailable", "/not-modified", "/teapot", "/missing", "/garbage",
                "/interim")) {
            ProxyClient.Reply reply = get("odd.test", path);
            assertEquals(502, reply.status(), path + ": " + reply.text());
            assertEquals("forward_auth_error", reply.json().getString("reason"), path);
        }
        assertEquals(1, origin.seen().size(), "only the allowed request reached the origin");
    }

    private static JsonObject route(String path, JsonObject forwardAuth) {
        return new JsonObject().put("match", new JsonObject().put("path", path)).put("forwardAuth", forwardAuth);
    }

    @Test
    void aCachedDecisionSavesTheSecondCallButRefusalsAreAskedEveryTime() {
        ScriptedOrigin auth = sessionAuth();
        guarded("cached.test", forwardAuth(auth.url() + "/check", "copyHeaders", new JsonArray().add("X-User"),
                "cacheFor", "30s"));

        assertEquals(200, get("cached.test", "/page", "Cookie", "s=ann").status());
        assertEquals(200, get("cached.test", "/page", "Cookie", "s=ann", "X-User", "mallory").status());
        assertEquals(1, auth.count("/check"), "the second request was decided from the cache");
        assertEquals(List.of("ann"), origin.last("/page").headers().getAll("X-User"),
                "a cached decision copies the service's user and still removes the client's");

        assertEquals(200, get("cached.test", "/page", "Cookie", "s=anon").status());
        assertEquals(2, auth.count("/check"), "another session is another question");
        assertEquals(200, get("cached.test", "/other", "Cookie", "s=ann").status());
        assertEquals(3, auth.count("/check"), "another URI is another question");

        assertEquals(401, get("cached.test", "/page").status());
        assertEquals(401, get("cached.test", "/page").status());
        assertEquals(5, auth.count("/check"), "refusals are not cached");
    }

    @Test
    void aRouteCanBeGuardedAloneAndALoggedInClientPasses() {
        ScriptedOrigin auth = sessionAuth();
        origin = kept(ScriptedOrigin.start().on("*", Reply.of(200, "page")));
        vhost(Api.vhost("mixed", "mixed.test", origin.url()).put("routes", new JsonArray()
                .add(route("/admin/*", forwardAuth(auth.url() + "/check")))));

        assertEquals(200, get("mixed.test", "/public").status());
        assertEquals(0, auth.count("/check"), "the vhost itself asks nobody");
        assertEquals(401, get("mixed.test", "/admin/users").status());
        assertEquals(401, get("mixed.test", "/ADMIN/users").status(), "matched as the route matches, any case");
        assertEquals(200, get("mixed.test", "/admin/users", "Cookie", "s=ann").status());
        assertEquals(3, auth.count("/check"));
        assertEquals(1, origin.count("/admin/users"));
    }

    @Test
    void invalidSettingsAreNamedAndDefaultsShown() {
        JsonObject bad = Api.vhost("bad", "bad.test", "http://127.0.0.1:9").put("forwardAuth", new JsonObject()
                .put("url", "ftp://auth.internal/check")
                .put("copyHeaders", new JsonArray().add("X-User").add("bad header").add("Content-Length"))
                .put("requestHeaders", new JsonArray().add("Cookie").add("X-Forwarded-For"))
                .put("timeout", "2d").put("cacheFor", "1h"));
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"), "forwardAuth.url",
                "forwardAuth.copyHeaders[1]", "forwardAuth.copyHeaders[2]", "forwardAuth.requestHeaders[1]",
                "forwardAuth.timeout", "forwardAuth.cacheFor");
        assertInvalid(Api.given().body(Api.vhost("none", "none.test", "http://127.0.0.1:9")
                .put("forwardAuth", new JsonObject()).encode()).post("/api/v1/vhosts"), "forwardAuth.url");

        String id = vhost(Api.vhost("good", "good.test", "http://127.0.0.1:9")
                .put("forwardAuth", new JsonObject().put("url", "http://auth.internal:9091/check")));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString())
                .getJsonObject("forwardAuth");
        assertEquals(new JsonObject().put("url", "http://auth.internal:9091/check").put("copyHeaders",
                new JsonArray()).put("requestHeaders", new JsonArray().add("Authorization").add("Cookie"))
                .put("timeout", "2s").put("cacheFor", "0s"), shown);
    }
}
