package dev.portico.app;

import dev.portico.testing.Eventually;
import dev.portico.testing.PorticoProcess;
import dev.portico.testing.OriginServer;
import dev.portico.testing.ProxyClient;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged application as an operator runs it: {@code java -jar quarkus-run.jar} with no configuration at all.
 * It must start its own PostgreSQL, print a generated token once, keep vhosts and the token across a restart, and
 * drain in-flight requests on SIGTERM. And as the container images run it: access log on standard output.
 */
class PorticoProcessIT {

    private static final Pattern TOKEN = Pattern.compile("^\\s{8}([A-Za-z0-9_-]{43})\\s*$", Pattern.MULTILINE);

    @AfterEach
    void killLeftovers() {
        PorticoProcess.killAll();
    }

    @Test
    void runsWithoutConfigurationPersistsAcrossRestartsAndDrainsOnSigterm() throws Exception {
        Path workDir = Files.createTempDirectory("portico-it");
        try (OriginServer origin = OriginServer.start("it")) {
            PorticoProcess first = PorticoProcess.start(workDir);
            first.awaitReady();
            String log = first.output.toString();
            assertTrue(log.contains("starting a local PostgreSQL"), log);
            assertTrue(Files.isDirectory(workDir.resolve(".portico/pgdata")), "data kept in the working directory");
            Matcher tokenLine = TOKEN.matcher(log);
            assertTrue(tokenLine.find(), "a generated token is printed:\n" + log);
            String token = tokenLine.group(1);
            assertTrue(log.contains("No PORTICO_SECRET_KEY was set, so one was generated"), log);

            RestAssured.given().get(first.api() + "/api/v1/vhosts").then().statusCode(401);
            JsonObject vhost = new JsonObject().put("name", "it").put("hostnames", new JsonArray().add("it.test"))
                    .put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url())));
            RestAssured.given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                    .body(vhost.encode()).post(first.api() + "/api/v1/vhosts").then().statusCode(201);

            try (ProxyClient client = new ProxyClient(first.proxyPort)) {
                assertEquals(200, client.get("it.test", "/echo").status());
                CompletableFuture<ProxyClient.Reply> inFlight = CompletableFuture.supplyAsync(
                        () -> client.get("it.test", "/slow/3000"));
                Eventually.within(Duration.ofSeconds(5), () -> assertTrue(origin.requestCount() >= 2,
                        "the slow request reached the origin"));
                // SIGTERM through the handle: Process.destroy() would also close our end of its output.
                first.process.toHandle().destroy();
                Eventually.within(Duration.ofSeconds(5), () -> assertThrows(IOException.class,
                        () -> new Socket("127.0.0.1", first.proxyPort).close(),
                        "the listener is closed while draining"));
                ProxyClient.Reply drained = inFlight.get(20, TimeUnit.SECONDS);
                assertEquals(200, drained.status(), "the in-flight request completes during shutdown");
                assertEquals("slow", drained.text());
            }
            assertTrue(first.process.waitFor(40, TimeUnit.SECONDS), "Portico exits after draining");
            first.reader.join(5000);
            assertTrue(first.output.toString().contains("Data plane drained"), first.output.toString());
            // The access log in its default place: every request, the one finished while draining included.
            Path accessLog = workDir.resolve("logs/access.log");
            List<String> paths = accessLogPaths(accessLog);
            assertEquals(List.of("/echo", "/slow/3000"), paths.stream().sorted().toList());

            PorticoProcess second = PorticoProcess.start(workDir);
            second.awaitReady();
            String secondLog = second.output.toString();
            assertFalse(TOKEN.matcher(secondLog).find(), "the token is printed only once:\n" + secondLog);
            JsonArray stored = new JsonArray(RestAssured.given().header("Authorization", "Bearer " + token)
                    .get(second.api() + "/api/v1/vhosts").then().statusCode(200).extract().asString());
            assertEquals(1, stored.size());
            assertEquals("it", stored.getJsonObject(0).getString("name"));
            try (ProxyClient client = new ProxyClient(second.proxyPort)) {
                ProxyClient.Reply reply = client.get("it.test", "/echo");
                assertEquals(200, reply.status());
                assertNotNull(reply.header("X-Request-Id"));
            }
            second.process.toHandle().destroy();
            assertTrue(second.process.waitFor(40, TimeUnit.SECONDS));
            assertEquals(3, accessLogPaths(accessLog).size(), "a restart appends to the access log");
        }
    }

    @Test
    void refusesToStartWithAnAdminTokenShorterThan16Characters() throws Exception {
        PorticoProcess running = PorticoProcess.start(Files.createTempDirectory("portico-it"),
                Map.of("PORTICO_ADMIN_TOKEN", "change-me"));

        assertTrue(running.process.waitFor(90, TimeUnit.SECONDS), "Portico must stop, not serve:\n" + running.output);
        running.reader.join(5000);
        assertNotEquals(0, running.process.exitValue(), running.output.toString());
        assertTrue(running.output.toString().contains("PORTICO_ADMIN_TOKEN (portico.admin.token) is 9 characters "
                + "long; it must have at least 16"), running.output.toString());
    }

    @Test
    void refusesToStartWithASettingOutsidePorticosGroups() throws Exception {
        // A misspelt group would otherwise be ignored: Portico would run on the default the operator meant to change.
        PorticoProcess running = PorticoProcess.start(Files.createTempDirectory("portico-it"),
                Map.of("PORTICO_ADMIN_TOKEN", "a-token-long-enough-for-portico",
                        "JAVA_TOOL_OPTIONS", "-Dportico.dataplan.port=18999"));

        assertTrue(running.process.waitFor(90, TimeUnit.SECONDS), "Portico must stop, not serve:\n" + running.output);
        running.reader.join(5000);
        assertNotEquals(0, running.process.exitValue(), running.output.toString());
        assertTrue(running.output.toString().contains("Unknown Portico settings [portico.dataplan.port]"),
                running.output.toString());
    }

    @Test
    void withStdoutTheAccessLogLinesAreOnStandardOutputBetweenTheApplicationsOwnLines() throws Exception {
        Path workDir = Files.createTempDirectory("portico-it-stdout");
        Map<String, String> environment = new HashMap<>(PorticoProcess.database());
        environment.put("PORTICO_ACCESS_LOG_FILE", "stdout");
        environment.put("PORTICO_ADMIN_TOKEN", "it-stdout-token-16");
        try (OriginServer origin = OriginServer.start("it-stdout")) {
            PorticoProcess running = PorticoProcess.start(workDir, environment);
            running.awaitReady();
            JsonObject vhost = new JsonObject().put("name", "it-stdout")
                    .put("hostnames", new JsonArray().add("it-stdout.test"))
                    .put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url())));
            RestAssured.given().header("Authorization", "Bearer it-stdout-token-16").contentType(ContentType.JSON)
                    .body(vhost.encode()).post(running.api() + "/api/v1/vhosts").then().statusCode(201);

            try (ProxyClient client = new ProxyClient(running.proxyPort)) {
                assertEquals(200, client.send(HttpMethod.GET, "it-stdout.test", "/echo?to=stdout",
                        "X-Request-Id", "it-stdout-1").status());
            }
            JsonObject line;
            try {
                line = Eventually.value(Duration.ofSeconds(10),
                        () -> accessLogLine(running.output.toString(), "it-stdout-1"), l -> l != null);
            } catch (AssertionError notInTime) {
                line = null;
            }
            String output = running.output.toString();
            assertNotNull(line, "no access-log line on standard output:\n" + output);
            assertEquals(200, line.getInteger("status"));
            assertEquals("it-stdout", line.getString("vhost"));
            assertEquals("/echo?to=stdout", line.getString("path"));
            assertTrue(output.contains("Access log: standard output (json)"), output);
            assertFalse(Files.exists(workDir.resolve("logs")), "no access-log file");
            running.process.toHandle().destroy();
            assertTrue(running.process.waitFor(40, TimeUnit.SECONDS));
        }
    }

    /** The access-log line of {@code requestId} in a process's output: a whole line holding one JSON object. */
    private static JsonObject accessLogLine(String output, String requestId) {
        for (String line : output.split("\n")) {
            if (line.startsWith("{") && line.contains("\"requestId\":\"" + requestId + "\"")) {
                return new JsonObject(line);
            }
        }
        return null;
    }

    private static List<String> accessLogPaths(Path file) throws IOException {
        List<String> paths = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            JsonObject json = new JsonObject(line);
            assertEquals(200, json.getInteger("status"), line);
            assertEquals("it", json.getString("vhost"), line);
            paths.add(json.getString("path"));
        }
        return paths;
    }

}
