package dev.portico.proxy.tunnel;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ConfigurationChurn;
import dev.portico.testing.TestVertx;
import dev.portico.testing.WebSocketClients;
import dev.portico.testing.WebSocketOrigin;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open WebSockets survive reconfiguration: commits that add, edit and delete other vhosts, and edit the WebSockets'
 * own vhost, while every socket exchanges a message every 100 ms. Not one socket may close, and every message must
 * come back, in order.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class WebSocketReconfigurationTest extends DataPlaneTestSupport {

    private static final int SOCKETS = 100;
    private static final int COMMITS = 50;
    /** Between commits: with the API's own time, the churn lasts several seconds of the sockets' traffic. */
    private static final long PAUSE_MILLIS = 100;

    @Test
    void hundredWebSocketsKeepEveryMessageThroughFiftyCommits() throws Exception {
        WebSocketOrigin origin = WebSocketOrigin.start("churn-origin");
        try (WebSocketClients clients = new WebSocketClients(dataPlane.port())) {
            String id = vhost(Api.vhost("live-ws", "live-ws.test", origin.url()));
            WebSocketStreams streams = new WebSocketStreams(clients, "live-ws.test", SOCKETS);
            streams.start();

            ConfigurationChurn churn = new ConfigurationChurn(id, i -> Api.vhost("live-ws", "live-ws.test",
                            origin.url())
                    .put("responseHeaders", new JsonObject().put("set", new JsonObject().put("X-Churn", "" + i)))
                    .put("websocketIdleTimeout", (60 + i) + "s"), origin.url());
            churn.run(COMMITS, PAUSE_MILLIS);

            streams.stopAndCheck();
            assertEquals(COMMITS, churn.commits());
            assertEquals(SOCKETS, origin.accepted(), "no socket reconnected");
        } finally {
            origin.close();
        }
    }

    /**
     * WebSockets that each send a numbered message every 100 ms and check the echoes come back in order. The other
     * long-lived stream kinds (SSE, gRPC streams) join the same churn with a class of their own.
     */
    static final class WebSocketStreams {
        private final WebSocketClients clients;
        private final String host;
        private final int count;
        private final Vertx vertx = TestVertx.get();
        private final List<WebSocket> sockets = new ArrayList<>();
        private final List<Long> timers = new ArrayList<>();
        private final AtomicInteger[] sent;
        private final AtomicInteger[] received;
        private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

        WebSocketStreams(WebSocketClients clients, String host, int count) {
            this.clients = clients;
            this.host = host;
            this.count = count;
            this.sent = new AtomicInteger[count];
            this.received = new AtomicInteger[count];
        }

        void start() {
            for (int i = 0; i < count; i++) {
                int socket = i;
                sent[i] = new AtomicInteger();
                received[i] = new AtomicInteger();
                WebSocket ws = clients.open(host, "/stream/" + i);
                ws.closeHandler(v -> problems.add("socket " + socket + " closed: " + ws.closeStatusCode()));
                ws.exceptionHandler(e -> problems.add("socket " + socket + " failed: " + e));
                ws.textMessageHandler(text -> {
                    int expected = received[socket].get();
                    String want = socket + ":" + expected;
                    if (!want.equals(text)) {
                        problems.add("socket " + socket + " expected " + want + " got " + text);
                    }
                    received[socket].incrementAndGet();
                });
                sockets.add(ws);
                timers.add(vertx.setPeriodic(100, t -> ws.writeTextMessage(socket + ":" + sent[socket]
                        .getAndIncrement())));
            }
        }

        void stopAndCheck() {
            timers.forEach(vertx::cancelTimer);
            Eventually.within(Duration.ofSeconds(10), () -> {
                for (int i = 0; i < count; i++) {
                    assertEquals(sent[i].get(), received[i].get(), "echoes of socket " + i);
                }
            });
            assertTrue(problems.isEmpty(), String.join("\n", problems));
            long total = 0;
            for (AtomicInteger s : sent) {
                total += s.get();
            }
            // 100 sockets x 10 messages a second through a churn of several seconds: the traffic ran throughout.
            assertTrue(total > count * 40L, "messages sent: " + total);
            for (WebSocket ws : sockets) {
                ws.closeHandler(null);
                ws.close();
            }
        }
    }
}
