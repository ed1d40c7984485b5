package dev.portico.proxy.upstream.balance;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.portico.testing.TestVertx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The balancing policies through the data plane, against real origins: least_conn and random_two by latency steer
 * away from a slow origin, hash keeps a client or a header on one origin, round robin covers requests without the key.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class BalancingPoliciesTest extends DataPlaneTestSupport {

    static JsonObject balanced(String name, String balance, OriginServer... origins) {
        JsonArray upstreams = new JsonArray();
        for (OriginServer origin : origins) {
            upstreams.add(new JsonObject().put("url", origin.url()));
        }
        return new JsonObject().put("name", name).put("hostnames", new JsonArray().add(name + ".test"))
                .put("upstreams", upstreams).put("balance", balance);
    }

    /** {@code total} GETs with {@code concurrency} in flight at a time; how many each origin answered. */
    static Map<String, Integer> spread(ProxyClient client, String host, int total, int concurrency) {
        Map<String, Integer> counts = new HashMap<>();
        int[] started = {0};
        List<Future<Void>> workers = new ArrayList<>();
        for (int w = 0; w < concurrency; w++) {
            workers.add(next(client, host, total, started, counts));
        }
        for (Future<Void> worker : workers) {
            TestVertx.await(worker);
        }
        return counts;
    }

    private static Future<Void> next(ProxyClient client, String host, int total, int[] started,
                                     Map<String, Integer> counts) {
        synchronized (started) {
            if (started[0] == total) {
                return Future.succeededFuture();
            }
            started[0]++;
        }
        return client.sendAsync(HttpMethod.GET, host, "/echo", Map.of(), null).compose(reply -> {
            assertEquals(200, reply.status());
            synchronized (counts) {
                counts.merge(reply.header("X-Origin"), 1, Integer::sum);
            }
            return next(client, host, total, started, counts);
        });
    }

    /**
     * Waits until a request succeeds after an origin was closed: a keep-alive connection to it may still be in the
     * pool for a moment, and a request written on it fails without a retry (retries are not this test's subject).
     */
    static void settle(ProxyClient client, String host) {
        Eventually.within(Duration.ofSeconds(5), () -> assertEquals(200, client.get(host, "/echo").status()));
    }

    @Test
    void leastConnSendsLittleToAnOriginThatHoldsItsRequests() {
        OriginServer fast = origin("fast");
        OriginServer slow = origin("slow").delay(400);
        vhost(balanced("least", "least_conn", fast, slow));
        Map<String, Integer> counts = spread(new ProxyClient(dataPlane.port(), "127.0.0.1", null, 6), "least.test",
                80, 6);
        int toSlow = counts.getOrDefault("slow", 0);
        // Round robin would send it 40: least_conn sends it a request only when it has no more in flight than fast.
        assertTrue(toSlow <= 16, "slow origin got " + toSlow + " of 80: " + counts);
        assertEquals(80, counts.values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void randomTwoByLatencySendsLittleToASlowOrigin() {
        OriginServer fast = origin("fast");
        OriginServer slow = origin("slow").delay(150);
        vhost(balanced("p2c", "random_two", fast, slow).put("balanceBy", "latency"));
        // One connection: one event loop, whose latency averages decide.
        Map<String, Integer> counts = spread(new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1), "p2c.test",
                60, 1);
        int toSlow = counts.getOrDefault("slow", 0);
        assertTrue(toSlow <= 6, "slow origin got " + toSlow + " of 60: " + counts);
    }

    @Test
    void randomTwoByRequestsInFlightSharesSequentialRequests() {
        OriginServer a = origin("a");
        OriginServer b = origin("b");
        vhost(balanced("p2cflight", "random_two", a, b));
        Map<String, Integer> counts = spread(client(), "p2cflight.test", 60, 1);
        assertEquals(Set.of("a", "b"), counts.keySet(), "both are drawn: " + counts);
    }

    @Test
    void hashKeepsEachClientAddressOnOneOrigin() {
        OriginServer a = origin("a");
        OriginServer b = origin("b");
        OriginServer c = origin("c");
        vhost(balanced("byclient", "hash", a, b, c));
        Set<String> used = new HashSet<>();
        for (int host = 10; host < 26; host++) {
            ProxyClient client = client("127.0.0.1", "127.0.0." + host);
            Set<String> origins = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                origins.add(client.get("byclient.test", "/echo").header("X-Origin"));
            }
            assertEquals(1, origins.size(), "client 127.0.0." + host + " went to " + origins);
            used.addAll(origins);
        }
        assertTrue(used.size() >= 2, "16 clients all on " + used);
    }

    @Test
    void hashOnAHeaderKeepsEachValueOnOneOriginAndRequestsWithoutItGoRoundRobin() {
        OriginServer a = origin("a");
        OriginServer b = origin("b");
        vhost(balanced("byheader", "hash", a, b).put("hashOn", "header:X-User"));
        ProxyClient client = new ProxyClient(dataPlane.port(), "127.0.0.1", null, 1);
        Set<String> used = new HashSet<>();
        for (int user = 0; user < 20; user++) {
            Set<String> origins = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                origins.add(client.send(HttpMethod.GET, "byheader.test", "/echo", "x-user", "user-" + user)
                        .header("X-Origin"));
            }
            assertEquals(1, origins.size(), "user-" + user + " went to " + origins);
            used.addAll(origins);
        }
        assertEquals(Set.of("a", "b"), used);
        Map<String, Integer> keyless = spread(client, "byheader.test", 4, 1);
        assertEquals(Map.of("a", 2, "b", 2), keyless, "without the header: round robin");
        client.close();
    }

    @Test
    void backupsServeOnlyOnceEveryPrimaryIsOut() {
        OriginServer first = origin("first");
        OriginServer second = origin("second");
        OriginServer standby = origin("standby");
        vhost(balanced("spare", "round_robin", first, second).put("upstreams", new JsonArray()
                .add(new JsonObject().put("url", first.url()))
                .add(new JsonObject().put("url", standby.url()).put("backup", true))
                .add(new JsonObject().put("url", second.url()))));
        ProxyClient client = client();
        Map<String, Integer> counts = spread(client, "spare.test", 20, 1);
        assertEquals(Set.of("first", "second"), counts.keySet(), "primaries up: no backup");
        first.close();
        settle(client, "spare.test");
        counts = spread(client, "spare.test", 10, 1);
        assertEquals(Map.of("second", 10), counts, "one primary left: still no backup");
        second.close();
        settle(client, "spare.test");
        counts = spread(client, "spare.test", 10, 1);
        assertEquals(Map.of("standby", 10), counts, "every primary out: the backup");
    }
}
