package dev.portico.proxy.route;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A change is live when the API call returns, requests already running finish on the configuration they started
 * with, and no connection is dropped by a swap.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LiveReconfigurationTest extends DataPlaneTestSupport {

    @Test
    void aReplacedUpstreamServesTheNextRequestWhileRunningOnesFinishOnTheOld() throws Exception {
        OriginServer before = origin("before");
        OriginServer after = origin("after");
        String id = vhost("live", "live.test", before);
        ProxyClient client = client();

        List<CompletableFuture<ProxyClient.Reply>> running = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            running.add(CompletableFuture.supplyAsync(() -> client.get("live.test", "/slow/1500")));
        }
        awaitRequests(before, 10);

        Api.given().body(Api.vhost("live", "live.test", after.url()).encode()).put("/api/v1/vhosts/" + id)
                .then().statusCode(200);
        assertEquals("after", client.get("live.test", "/echo").json().getString("origin"));

        for (CompletableFuture<ProxyClient.Reply> reply : running) {
            ProxyClient.Reply finished = reply.get(10, TimeUnit.SECONDS);
            assertEquals(200, finished.status());
            assertEquals("before", finished.header("X-Origin"));
            assertEquals("slow", finished.text());
        }
    }

    @Test
    void aDeletedVhostIs404ForNewRequestsWhileRunningOnesFinish() throws Exception {
        OriginServer origin = origin("a");
        String id = vhost("doomed", "doomed.test", origin);
        ProxyClient client = client();
        CompletableFuture<ProxyClient.Reply> running = CompletableFuture.supplyAsync(
                () -> client.get("doomed.test", "/slow/1000"));
        awaitRequests(origin, 1);

        Api.delete(id);
        assertEquals(404, client.get("doomed.test", "/echo").status());
        assertEquals(200, running.get(10, TimeUnit.SECONDS).status());
    }

    @Test
    void continuousTrafficSeesNoErrorsAcrossManyChanges() throws Exception {
        OriginServer a = origin("a");
        OriginServer b = origin("b");
        String id = vhost("busy", "busy.test", a);
        vhost("bystander", "bystander.test", a);
        ProxyClient client = client();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ok = new AtomicInteger();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            String host = w % 2 == 0 ? "busy.test" : "bystander.test";
            workers.add(CompletableFuture.runAsync(() -> {
                while (!stop.get()) {
                    try {
                        ProxyClient.Reply reply = client.get(host, "/echo");
                        if (reply.status() == 200) {
                            ok.incrementAndGet();
                        } else {
                            failures.add(host + " -> " + reply.status() + " " + reply.text());
                        }
                    } catch (RuntimeException e) {
                        failures.add(host + " -> " + e);
                    }
                }
            }));
        }
        for (int change = 0; change < 20; change++) {
            OriginServer target = change % 2 == 0 ? b : a;
            JsonObject body = Api.vhost("busy", "busy.test", target.url())
                    .put("responseHeaders", new JsonObject().put("set", new JsonObject().put("X-Change", "" + change)));
            Api.given().body(body.encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);
        }
        stop.set(true);
        CompletableFuture.allOf(workers.toArray(new CompletableFuture[0])).get(30, TimeUnit.SECONDS);
        assertTrue(failures.isEmpty(), "failures: " + failures);
        assertTrue(ok.get() > 50, "only " + ok.get() + " requests completed");
        assertEquals("19", client.get("busy.test", "/echo").header("X-Change"));
    }

    private static void awaitRequests(OriginServer origin, int count) {
        long reached = Eventually.value(Duration.ofSeconds(5), () -> (long) origin.requestCount(), n -> n >= count);
        assertEquals(count, reached, "requests that reached the origin");
    }
}
