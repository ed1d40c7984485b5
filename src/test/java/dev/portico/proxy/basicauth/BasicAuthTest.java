package dev.portico.proxy.basicauth;

import dev.portico.http.auth.PasswordHash;
import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A vhost's {@code basicAuth} against a real origin and client: challenges, checks, hashing, the cache, the pool. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class BasicAuthTest extends DataPlaneTestSupport {

    private static final String CHALLENGE = "Basic realm=\"staff\", charset=\"UTF-8\"";

    private ScriptedOrigin origin;

    @AfterEach
    void closeOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    static String bcrypt(String password, int cost) {
        return OpenBSDBCrypt.generate("2b", password.getBytes(StandardCharsets.UTF_8), new byte[16], cost);
    }

    static JsonObject user(String name, String field, String value) {
        return new JsonObject().put("name", name).put(field, value);
    }

    private String guarded(String host, JsonObject basicAuth) {
        origin = ScriptedOrigin.start().on("/page", Reply.of(200, "page"));
        return vhost(Api.vhost(host, host, origin.url()).put("basicAuth", basicAuth));
    }

    private static JsonObject staff(JsonObject... users) {
        return new JsonObject().put("realm", "staff").put("users", new JsonArray(List.of((Object[]) users)));
    }

    private static void assertRefused(ProxyClient.Reply reply, String reason) {
        assertEquals(401, reply.status(), reply.text());
        assertEquals(reason, reply.json().getString("reason"));
        assertEquals(CHALLENGE, reply.header("WWW-Authenticate"));
    }

    @Test
    void onlyTheRightPasswordPassesAndTheOriginNeverSeesTheCredentials() {
        guarded("staff.test", staff(user("ann", "password", "plain-é"), user("bob", "hash", bcrypt("b0b", 4))));
        ProxyClient client = client();

        assertRefused(client.get("staff.test", "/page"), "auth_required");
        assertRefused(client.send(HttpMethod.GET, "staff.test", "/page", "Authorization", "Bearer abc"),
                "auth_required");
        assertRefused(client.send(HttpMethod.GET, "staff.test", "/page", "Authorization", basic("ann", "plain")),
                "auth_failed");
        assertRefused(client.send(HttpMethod.GET, "staff.test", "/page", "Authorization", basic("eve", "plain-é")),
                "auth_failed");
        assertRefused(client.send(HttpMethod.GET, "staff.test", "/page", "Authorization", "Basic !!notbase64"),
                "auth_failed");
        assertRefused(client.send(HttpMethod.GET, "staff.test", "/page", "Authorization",
                "Basic " + Base64.getEncoder().encodeToString("nocolon".getBytes(StandardCharsets.UTF_8))),
                "auth_failed");
        assertEquals(0, origin.count("/page"), "nothing refused went upstream");

        ProxyClient.Reply ann = client.send(HttpMethod.GET, "staff.test", "/page", "Authorization",
                basic("ann", "plain-é"));
        assertEquals(200, ann.status(), ann.text());
        assertNull(origin.last("/page").headers().get("Authorization"), "the credentials stay with Portico");
        assertEquals(200, client.send(HttpMethod.GET, "staff.test", "/page", "Authorization",
                basic("bob", "b0b")).status(), "a given bcrypt hash");
        assertEquals(200, client.send(HttpMethod.GET, "staff.test", "/page", "authorization",
                "basic " + basic("ann", "plain-é").substring(6)).status(), "the scheme is case-insensitive");
        assertEquals(3, origin.count("/page"));
    }

    @Test
    void forwardAuthorizationSendsTheHeaderOn() {
        guarded("fwd.test", staff(user("ann", "hash", bcrypt("x", 4))).put("forwardAuthorization", true));
        String credentials = basic("ann", "x");
        assertEquals(200, client().send(HttpMethod.GET, "fwd.test", "/page", "Authorization", credentials).status());
        assertEquals(credentials, origin.last("/page").headers().get("Authorization"));
    }

    @Test
    void aPlainPasswordIsStoredAndShownOnlyAsItsBcryptHash() {
        String id = guarded("hashed.test", staff(user("ann", "password", "correct horse")));
        String shownText = Api.given().get("/api/v1/vhosts/" + id).asString();
        assertFalse(shownText.contains("correct horse"), shownText);
        JsonObject shown = new JsonObject(shownText);
        JsonObject ann = shown.getJsonObject("basicAuth").getJsonArray("users").getJsonObject(0);
        assertEquals(Map.of("name", "ann", "hash", ann.getString("hash")), ann.getMap());
        assertTrue(ann.getString("hash").startsWith("$2y$10$"), ann.getString("hash"));
        assertTrue(PasswordHash.parse(ann.getString("hash")).matches("correct horse".getBytes(StandardCharsets.UTF_8)));
        assertEquals(false, shown.getJsonObject("basicAuth").getBoolean("forwardAuthorization"));

        // The view sent back as it is keeps the hash: the user still gets in with the same password.
        shown.remove("id");
        Api.given().header("If-Match", "*").body(shown.encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);
        JsonObject again = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString());
        assertEquals(ann.getString("hash"), again.getJsonObject("basicAuth").getJsonArray("users").getJsonObject(0)
                .getString("hash"));
        assertEquals(200, client().send(HttpMethod.GET, "hashed.test", "/page", "Authorization",
                basic("ann", "correct horse")).status());
    }

    @Test
    void invalidSettingsAreNamedWithoutEchoingThePassword() {
        JsonObject bad = Api.vhost("bad", "bad.test", "http://127.0.0.1:9").put("basicAuth", new JsonObject()
                .put("realm", "say \"hi\"").put("users", new JsonArray()
                        .add(user("ann", "password", "topsecret-1"))
                        .add(user("ann", "password", "topsecret-2"))
                        .add(user("a:b", "hash", bcrypt("x", 4)))
                        .add(user("cat", "hash", "$2y$10$short"))
                        .add(user("dan", "hash", bcrypt("x", 4).replace("$04$", "$15$")))
                        .add(user("eve", "password", "x").put("hash", bcrypt("x", 4)))
                        .add(new JsonObject().put("name", "fay"))
                        .add(user("gus", "password", "p".repeat(73)))));
        Response response = Api.given().body(bad.encode()).post("/api/v1/vhosts");
        assertInvalid(response, "basicAuth.realm", "basicAuth.users[1].name", "basicAuth.users[2].name",
                "basicAuth.users[3].hash", "basicAuth.users[4].hash", "basicAuth.users[5]",
                "basicAuth.users[6].password", "basicAuth.users[7].password");
        assertFalse(response.asString().contains("topsecret"), response.asString());
        assertInvalid(Api.given().body(Api.vhost("none", "none.test", "http://127.0.0.1:9")
                .put("basicAuth", new JsonObject().put("users", new JsonArray())).encode())
                .post("/api/v1/vhosts"), "basicAuth.users");
    }

    @Test
    void aChangedPasswordEndsTheRememberedCredential() {
        String id = guarded("change.test", staff(user("ann", "hash", bcrypt("first", 4))));
        ProxyClient client = client();
        assertEquals(200, client.send(HttpMethod.GET, "change.test", "/page", "Authorization",
                basic("ann", "first")).status());

        JsonObject changed = Api.vhost("change.test", "change.test", origin.url())
                .put("basicAuth", staff(user("ann", "password", "second")));
        Api.given().header("If-Match", "*").body(changed.encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);

        assertRefused(client.send(HttpMethod.GET, "change.test", "/page", "Authorization", basic("ann", "first")),
                "auth_failed");
        assertEquals(200, client.send(HttpMethod.GET, "change.test", "/page", "Authorization",
                basic("ann", "second")).status());
    }

    @Test
    void aFloodOfGuessesGets503WhileARememberedCredentialStillPasses() {
        // A costly hash keeps the few workers busy; ann's cheap one is checked once, then remembered.
        guarded("flood.test", staff(user("slow", "hash", bcrypt("right", 12)), user("ann", "hash", bcrypt("a", 4))));
        int flood = 3 * PasswordWorkers.MAX_QUEUED + 16;
        try (ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, flood + 2)) {
            assertEquals(200, client.send(HttpMethod.GET, "flood.test", "/page", "Authorization",
                    basic("ann", "a")).status());

            List<Future<ProxyClient.Reply>> guesses = new ArrayList<>();
            for (int i = 0; i < flood; i++) {
                guesses.add(client.sendAsync(HttpMethod.GET, "flood.test", "/page",
                        Map.of("Authorization", basic("slow", "guess-" + i)), null));
            }
            // While the guesses queue, the remembered credential costs no check: it passes at once.
            ProxyClient.Reply during = client.send(HttpMethod.GET, "flood.test", "/page", "Authorization",
                    basic("ann", "a"));
            assertEquals(200, during.status(), during.text());
            int busy = 0;
            int failed = 0;
            for (Future<ProxyClient.Reply> guess : guesses) {
                ProxyClient.Reply reply = TestVertx.await(guess);
                if (reply.status() == 503) {
                    assertEquals("auth_busy", reply.json().getString("reason"));
                    assertEquals("1", reply.header("Retry-After"));
                    busy++;
                } else {
                    assertRefused(reply, "auth_failed");
                    failed++;
                }
            }
            assertTrue(busy > 0, "the queue is bounded: " + failed + " checked, none refused");
            assertTrue(failed <= PasswordWorkers.MAX_QUEUED + 8,
                    "at most the queue's bound (and those freed meanwhile) were checked: " + failed);
            assertEquals(2, origin.count("/page"));
        }
    }

    @Test
    void aRouteCarriesItsOwnPolicies() {
        origin = ScriptedOrigin.start().on("/admin/panel", Reply.of(200, "admin"))
                .on("/api/items", Reply.of(200, "items")).on("/page", Reply.of(200, "page"));
        vhost(Api.vhost("mixed.test", "mixed.test", origin.url()).put("routes", new JsonArray()
                .add(new JsonObject().put("name", "admin").put("match", new JsonObject().put("path", "/admin/*"))
                        .put("basicAuth", staff(user("ann", "password", "adm1n"))))
                .add(new JsonObject().put("name", "api").put("match", new JsonObject().put("path", "/api/*"))
                        .put("rateLimit", new JsonObject().put("requestsPerSecond", 0.01).put("burst", 2)))));
        ProxyClient client = client();

        assertRefused(client.get("mixed.test", "/admin/panel"), "auth_required");
        assertRefused(client.get("mixed.test", "/ADMIN/panel"), "auth_required");
        assertRefused(client.get("mixed.test", "/x/../admin/panel"), "auth_required");
        for (int i = 0; i < 4; i++) {
            assertEquals(200, client.send(HttpMethod.GET, "mixed.test", "/admin/panel", "Authorization",
                    basic("ann", "adm1n")).status(), "the admin route has no rate limit");
        }
        assertEquals(200, client.get("mixed.test", "/api/items").status());
        assertEquals(200, client.get("mixed.test", "/api/items").status());
        ProxyClient.Reply limited = client.get("mixed.test", "/api/items");
        assertEquals(429, limited.status());
        assertEquals("rate_limited", limited.json().getString("reason"));
        for (int i = 0; i < 4; i++) {
            assertEquals(200, client.get("mixed.test", "/page").status(), "the vhost itself has neither policy");
        }

        String shown = Api.given().get("/api/v1/vhosts").asString();
        assertFalse(shown.contains("adm1n"), "a route's password is stored as a hash too: " + shown);
        assertTrue(shown.contains("$2y$10$"), shown);
    }
}
