package dev.portico.proxy.ratelimit;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.Scrape;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.TrustedLoopback;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A vhost's {@code rateLimit} against real clients bound to different loopback addresses (127.0.0.3 is a trusted
 * proxy): the 429 and its headers, each kind of key, snapshot swaps, and many connections at once over the loops.
 */
@QuarkusTest
@TestProfile(TrustedLoopback.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RateLimitTest extends DataPlaneTestSupport {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private ScriptedOrigin origin;

    @AfterEach
    void closeOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    static JsonObject limit(double rate, int burst, String key) {
        return new JsonObject().put("requestsPerSecond", rate).put("burst", burst).put("key", key);
    }

    private String limited(String host, JsonObject rateLimit) {
        origin = ScriptedOrigin.start().on("/page", Reply.of(200, "page"));
        return vhost(Api.vhost(host, host, origin.url()).put("rateLimit", rateLimit));
    }

    private ProxyClient from(String localAddress) {
        return client("127.0.0.1", localAddress);
    }

    private static int passed(ProxyClient client, String host, int requests, String... headers) {
        int ok = 0;
        for (int i = 0; i < requests; i++) {
            ProxyClient.Reply reply = client.send(HttpMethod.GET, host, "/page", headers);
            if (reply.status() == 200) {
                ok++;
            } else {
                assertEquals(429, reply.status(), reply.text());
            }
        }
        return ok;
    }

    @Test
    void pastTheBurstA429WithRetryAfterAndTheDraftHeaders() {
        limited("burst.test", limit(0.5, 3, "client"));
        double before = Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"rate_limited\"}");
        ProxyClient client = from("127.0.0.1");
        for (int i = 0; i < 3; i++) {
            ProxyClient.Reply reply = client.get("burst.test", "/page");
            assertEquals(200, reply.status());
            assertEquals(null, reply.header("RateLimit"), "let-through responses carry no rate-limit header");
        }
        ProxyClient.Reply refused = client.get("burst.test", "/page");
        assertEquals(429, refused.status());
        assertEquals("rate_limited", refused.json().getString("reason"));
        assertEquals("2", refused.header("Retry-After"), "a token every 2 s, rounded up to whole seconds");
        assertEquals("\"default\";q=3;w=6", refused.header("RateLimit-Policy"));
        assertEquals("\"default\";r=0;t=2", refused.header("RateLimit"));
        assertEquals(3, origin.count("/page"), "the refused request never went upstream");
        assertEquals(before + 1,
                Scrape.of(metrics).valueOrZero("portico_local_replies_total{reason=\"rate_limited\"}"));
    }

    @Test
    void eachClientAddressHasItsOwnBucketAndAForwardedClientIsCountedAsItself() {
        limited("clients.test", limit(0.01, 2, "client"));
        assertEquals(2, passed(from("127.0.0.1"), "clients.test", 4));
        assertEquals(2, passed(from("127.0.0.2"), "clients.test", 4));
        ProxyClient proxy = from("127.0.0.3");
        assertEquals(2, passed(proxy, "clients.test", 3, "X-Forwarded-For", "203.0.113.9"));
        assertEquals(2, passed(proxy, "clients.test", 3, "X-Forwarded-For", "203.0.113.10"));
    }

    @Test
    void headerKeysHaveTheirOwnBucketsAndARequestWithoutTheHeaderCountsByClient() {
        limited("keys.test", limit(0.01, 2, "header:X-Api-Key"));
        ProxyClient client = from("127.0.0.1");
        assertEquals(2, passed(client, "keys.test", 3, "X-Api-Key", "alpha"));
        assertEquals(2, passed(client, "keys.test", 3, "X-Api-Key", "beta"));
        assertEquals(2, passed(client, "keys.test", 3), "no key: the client's own bucket");
        assertEquals(2, passed(client, "keys.test", 3, "X-Api-Key", "127.0.0.1"),
                "a key that spells an address does not share that client's bucket");
    }

    @Test
    void theRouteKeyIsOneBucketForEveryClient() {
        limited("shared.test", limit(0.01, 3, "route"));
        assertEquals(2, passed(from("127.0.0.1"), "shared.test", 2));
        assertEquals(1, passed(from("127.0.0.2"), "shared.test", 3));
    }

    @Test
    void aClaimKeyCountsEachBasicAuthUser() {
        origin = ScriptedOrigin.start().on("/page", Reply.of(200, "page"));
        vhost(Api.vhost("users.test", "users.test", origin.url())
                .put("basicAuth", new JsonObject().put("users", new JsonArray()
                        .add(new JsonObject().put("name", "ann").put("hash", bcrypt("a")))
                        .add(new JsonObject().put("name", "bob").put("hash", bcrypt("b")))))
                .put("rateLimit", limit(0.01, 2, "claim:user")));
        ProxyClient client = from("127.0.0.1");
        assertEquals(2, passed(client, "users.test", 3, "Authorization", basic("ann", "a")));
        assertEquals(2, passed(client, "users.test", 3, "Authorization", basic("bob", "b")),
                "same address, another user: another bucket");
    }

    @Test
    void aSnapshotSwapKeepsTheBucketsWhileTheSettingsStayTheSame() {
        String id = limited("swap.test", limit(0.01, 2, "client"));
        ProxyClient client = from("127.0.0.1");
        assertEquals(2, passed(client, "swap.test", 3));

        vhost(Api.vhost("other", "other.test", origin.url()));
        assertEquals(0, passed(client, "swap.test", 1), "publishing another vhost refilled nothing");

        JsonObject changed = Api.vhost("swap.test", "swap.test", origin.url()).put("rateLimit",
                limit(0.01, 3, "client"));
        Api.given().header("If-Match", "*").body(changed.encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);
        assertEquals(3, passed(client, "swap.test", 4), "new settings start new buckets");
    }

    @Test
    void underConcurrentLoadOverSeveralLoopsTheAdmittedCountStaysWithinBurstPlusRate() {
        double rate = 40;
        int burst = 20;
        limited("load.test", limit(rate, burst, "route"));
        int connections = 64;
        int admitted = 0;
        int refused = 0;
        // Many connections, so the data plane's event loops (two in tests) all take requests against one bucket.
        try (ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, connections)) {
            long start = System.nanoTime();
            while (System.nanoTime() - start < 1_500_000_000L) {
                List<Future<ProxyClient.Reply>> wave = new ArrayList<>();
                for (int i = 0; i < connections; i++) {
                    wave.add(client.sendAsync(HttpMethod.GET, "load.test", "/page", Map.of(), null));
                }
                for (Future<ProxyClient.Reply> reply : wave) {
                    int status = TestVertx.await(reply).status();
                    if (status == 200) {
                        admitted++;
                    } else {
                        assertEquals(429, status);
                        refused++;
                    }
                }
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            long most = burst + (long) Math.ceil(rate * elapsed);
            assertTrue(admitted <= most, admitted + " admitted in " + elapsed + " s, at most " + most);
            assertTrue(admitted >= burst + (long) (rate * elapsed / 2),
                    admitted + " admitted in " + elapsed + " s: the bucket refills under load");
            assertTrue(refused > admitted, "the load was well over the limit: " + refused + " refused");
            assertEquals(admitted, origin.count("/page"));
        }
    }

    @Test
    void invalidSettingsAreNamedAndDefaultsFilledIn() {
        JsonObject bad = Api.vhost("bad", "bad.test", "http://127.0.0.1:9").put("rateLimit", new JsonObject()
                .put("requestsPerSecond", 0).put("burst", 0).put("key", "cookie:session"));
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"),
                "rateLimit.requestsPerSecond", "rateLimit.burst", "rateLimit.key");
        assertInvalid(Api.given().body(Api.vhost("bad", "bad.test", "http://127.0.0.1:9").put("rateLimit",
                new JsonObject().put("key", "header:Bad Name")).encode()).post("/api/v1/vhosts"),
                "rateLimit.requestsPerSecond", "rateLimit.key");

        String id = vhost(Api.vhost("good", "good.test", "http://127.0.0.1:9").put("rateLimit",
                new JsonObject().put("requestsPerSecond", 2.5)));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString());
        assertEquals(new JsonObject().put("requestsPerSecond", 2.5).put("burst", 3).put("key", "client"),
                shown.getJsonObject("rateLimit"));
    }

    static String basic(String user, String password) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static String bcrypt(String password) {
        return org.bouncycastle.crypto.generators.OpenBSDBCrypt.generate("2b",
                password.getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[16], 4);
    }
}
