package dev.portico.app;

import dev.portico.testing.PorticoProcess;
import dev.portico.testing.TestVertx;
import dev.portico.testing.WebSocketClients;
import dev.portico.testing.WebSocketOrigin;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A WebSocket open when the packaged application gets SIGTERM: it keeps working through the drain grace, is closed
 * when the grace ends, and its access-log line (reason {@code shutdown}) is written before the process exits.
 */
class WebSocketShutdownIT {

    private static final String TOKEN = "it-websocket-token-16";

    @AfterEach
    void killLeftovers() {
        PorticoProcess.killAll();
    }

    @Test
    void anOpenWebSocketIsClosedAfterTheGraceAndLogged() throws Exception {
        Path workDir = Files.createTempDirectory("portico-it-ws");
        Map<String, String> environment = new HashMap<>(PorticoProcess.database());
        environment.put("PORTICO_ADMIN_TOKEN", TOKEN);
        try (WebSocketOrigin origin = WebSocketOrigin.start("it-ws")) {
            PorticoProcess running = PorticoProcess.start(workDir, environment,
                    Map.of("portico.dataplane.shutdown-grace", "3s"));
            running.awaitReady();
            JsonObject vhost = new JsonObject().put("name", "it-ws").put("hostnames", new JsonArray().add("it-ws.test"))
                    .put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url())));
            RestAssured.given().header("Authorization", "Bearer " + TOKEN).contentType(ContentType.JSON)
                    .body(vhost.encode()).post(running.api() + "/api/v1/vhosts").then().statusCode(201);

            try (WebSocketClients clients = new WebSocketClients(running.proxyPort)) {
                WebSocket ws = clients.open("it-ws.test", "/");
                CompletableFuture<String> echo = new CompletableFuture<>();
                ws.textMessageHandler(echo::complete);
                CompletableFuture<Short> closed = new CompletableFuture<>();
                ws.closeHandler(v -> closed.complete(ws.closeStatusCode()));

                long sigterm = System.nanoTime();
                running.process.toHandle().destroy();
                // Draining: the open tunnel still works.
                TestVertx.await(ws.writeTextMessage("still here"));
                assertEquals("still here", echo.get(5, TimeUnit.SECONDS));
                assertEquals((short) 1001, closed.get(20, TimeUnit.SECONDS), "Going Away");
                assertTrue(System.nanoTime() - sigterm >= TimeUnit.MILLISECONDS.toNanos(2500),
                        "closed only once the grace passed");
            }
            assertTrue(running.process.waitFor(40, TimeUnit.SECONDS), "Portico exits");
            running.reader.join(5000);
            List<String> lines = Files.readAllLines(workDir.resolve("logs/access.log"), StandardCharsets.UTF_8);
            assertEquals(1, lines.size(), String.join("\n", lines));
            JsonObject line = new JsonObject(lines.get(0));
            assertEquals(101, line.getInteger("status"), lines.get(0));
            assertEquals("shutdown", line.getString("reason"), lines.get(0));
            assertTrue(line.getLong("bytesIn") > 0 && line.getLong("bytesOut") > 0, lines.get(0));
        }
    }
}
