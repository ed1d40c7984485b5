package dev.portico.proxy.upstream.balance;

import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Weighted round robin, and failover when an upstream refuses connections. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class LoadBalancingTest extends DataPlaneTestSupport {

    @Test
    void splitsTrafficByWeight() {
        OriginServer heavy = origin("heavy");
        OriginServer light = origin("light");
        vhost(new JsonObject().put("name", "weighted").put("hostnames", new JsonArray().add("weighted.test"))
                .put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", heavy.url()).put("weight", 3))
                        .add(new JsonObject().put("url", light.url()).put("weight", 1))));
        // One keep-alive connection: every request lands on the same event loop and follows its schedule.
        HttpClient single = TestVertx.get().createHttpClient(new HttpClientOptions().setMaxPoolSize(1));
        try {
            Map<String, Integer> counts = new HashMap<>();
            for (int i = 0; i < 40; i++) {
                String origin = TestVertx.await(single.request(new RequestOptions().setHost("127.0.0.1")
                                .setPort(dataPlane.port()).setURI("/echo").putHeader("Host", "weighted.test"))
                        .compose(HttpClientRequest::send)
                        .map(response -> response.getHeader("X-Origin")));
                counts.merge(origin == null ? "?" : origin, 1, Integer::sum);
            }
            assertEquals(Map.of("heavy", 30, "light", 10), counts);
        } finally {
            single.close();
        }
    }

    @Test
    void failsOverFromARefusingUpstreamWithoutTheClientNoticing() throws Exception {
        OriginServer healthy = origin("healthy");
        vhost(Api.vhost("failover", "failover.test", "http://127.0.0.1:" + BrokenOrigins.refusingPort(),
                healthy.url()));
        ProxyClient client = client();
        for (int i = 0; i < 10; i++) {
            ProxyClient.Reply reply = client.get("failover.test", "/echo");
            assertEquals(200, reply.status());
            assertEquals("healthy", reply.json().getString("origin"));
        }
        assertEquals(10, healthy.requestCount());
    }

    @Test
    void aLoneUpstreamIsUsedAgainAtOnceAfterItFailed() throws Exception {
        // Passive health takes a failing upstream out for a while, but a vhost's only one stays in: there is nothing
        // to fail over to, and holding it out would answer 503 for seconds after the origin is back.
        int port = BrokenOrigins.refusingPort();
        vhost(Api.vhost("lone", "lone.test", "http://127.0.0.1:" + port));
        ProxyClient client = client();
        assertEquals(502, client.get("lone.test", "/echo").status(), "nothing listens yet");
        OriginServer back = OriginServer.start("back", port);
        try {
            ProxyClient.Reply reply = client.get("lone.test", "/echo");
            assertEquals(200, reply.status(), reply.text());
            assertEquals("back", reply.json().getString("origin"));
        } finally {
            back.close();
        }
    }
}
