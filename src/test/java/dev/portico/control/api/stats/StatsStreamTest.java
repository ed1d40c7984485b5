package dev.portico.control.api.stats;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.SseEvents;
import dev.portico.testing.SseEvents.Event;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** {@code /api/v1/stats/stream} with a real streaming client. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StatsStreamTest {

    @Inject
    DataPlaneServer dataPlane;

    @Inject
    StatsStream stream;

    @TestHTTPResource("/")
    URL api;

    private final List<HttpClient> clients = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        clients.forEach(HttpClient::close);
        Api.deleteAll();
    }

    /** Opens a stream and parses its events into a queue; comment lines are queued as events named ":". */
    private BlockingQueue<Event> open(String query) {
        HttpClient client = TestVertx.get().createHttpClient();
        clients.add(client);
        return SseEvents.open(client, api, "/api/v1/stats/stream" + query);
    }

    private static Event nextStats(BlockingQueue<Event> events) throws InterruptedException {
        while (true) {
            Event event = events.poll(5, TimeUnit.SECONDS);
            assertNotNull(event, "no event within 5 s");
            if ("stats".equals(event.name())) {
                return event;
            }
        }
    }

    @Test
    void sendsAnEventEverySecondWithConsecutiveIdsAndTheTraffic() throws Exception {
        try (OriginServer origin = OriginServer.start("streamed");
             ProxyClient client = new ProxyClient(dataPlane.port())) {
            Api.create(Api.vhost("streamed", "streamed.test", origin.url()));
            Api.create(Api.vhost("other", "other.test", origin.url()));
            BlockingQueue<Event> events = open("?vhost=streamed");
            Event first = nextStats(events);
            Event second = nextStats(events);
            assertEquals(Long.parseLong(first.id()) + 1, Long.parseLong(second.id()));

            for (int i = 0; i < 12; i++) {
                client.get("streamed.test", "/echo");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            JsonObject seen = null;
            while (System.nanoTime() < deadline) {
                JsonObject data = new JsonObject(nextStats(events).data());
                assertEquals(1, data.getJsonArray("vhosts").size(), "filtered to one vhost: " + data.encode());
                seen = data.getJsonArray("vhosts").getJsonObject(0);
                assertEquals("streamed", seen.getString("vhost"));
                if (seen.getLong("requests") == 12) {
                    break;
                }
            }
            assertEquals(12, seen.getLong("requests"));
            assertEquals(12, seen.getJsonObject("status").getLong("2xx"));
        }
    }

    @Test
    void sendsHeartbeatComments() throws Exception {
        BlockingQueue<Event> events = open("");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            Event event = events.poll(15, TimeUnit.SECONDS);
            if (event != null && ":".equals(event.name())) {
                return;
            }
        }
        throw new AssertionError("no heartbeat comment within 15 s");
    }

    @Test
    void forgetsSubscribersThatDisconnect() throws Exception {
        int before = stream.subscriberCount();
        for (int i = 0; i < 3; i++) {
            nextStats(open(""));
        }
        assertEquals(before + 3, stream.subscriberCount());
        clients.forEach(HttpClient::close);
        clients.clear();
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(before, stream.subscriberCount(),
                "subscribers whose clients disconnected are forgotten"));
    }

    @Test
    void needsTheToken() {
        io.restassured.RestAssured.given().get("/api/v1/stats/stream").then().statusCode(401);
        io.restassured.RestAssured.given().get("/api/v1/stats").then().statusCode(401);
    }
}
