package dev.portico.app;

import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.ProxyClient;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        for (Process process : processes) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** A running Portico process and what it printed. */
    private final class Running {
        final Process process;
        final StringBuffer output = new StringBuffer();
        final Thread reader;
        final int proxyPort = freePort();
        final int apiPort = freePort();
        final int managementPort = freePort();
        final int tlsPort = freePort();

        Running(Path workDir) throws IOException {
            this(workDir, Map.of());
        }

        /** With {@code environment} added to a clean environment (no token, no datasource). */
        Running(Path workDir, Map<String, String> environment) throws IOException {
            Path app = Path.of(System.getProperty("portico.app.dir", "target/quarkus-app"), "quarkus-run.jar");
            String java = ProcessHandle.current().info().command().orElse("java");
            ProcessBuilder builder = new ProcessBuilder(java,
                    "-Dportico.dataplane.port=" + proxyPort,
                    "-Dportico.dataplane.tls-port=" + tlsPort,
                    "-Dquarkus.http.port=" + apiPort,
                    "-Dquarkus.management.port=" + managementPort,
                    "-Dportico.dataplane.shutdown-grace=20s",
                    "-jar", app.toAbsolutePath().toString())
                    .directory(workDir.toFile())
                    .redirectErrorStream(true);
            builder.environment().remove("PORTICO_ADMIN_TOKEN");
            builder.environment().remove("PORTICO_SECRET_KEY");
            builder.environment().remove("QUARKUS_DATASOURCE_JDBC_URL");
            builder.environment().putAll(environment);
            process = builder.start();
            processes.add(process);
            reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        output.append(line).append('\n');
                    }
                } catch (IOException ignored) {
                    // process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        void awaitReady() throws InterruptedException {
            boolean ready;
            try {
                // Stops waiting as soon as Portico is ready or has exited.
                ready = Eventually.value(Duration.ofSeconds(90), this::ready, r -> r || !process.isAlive());
            } catch (AssertionError notInTime) {
                throw new AssertionError("Portico did not become ready:\n" + output, notInTime);
            }
            if (!ready) {
                reader.join(2000);
                throw new AssertionError("Portico exited with " + process.exitValue() + " during start:\n" + output);
            }
        }

        private boolean ready() {
            try {
                return RestAssured.given().get("http://127.0.0.1:" + managementPort + "/q/health/ready")
                        .statusCode() == 200;
            } catch (Exception notYet) {
                return false; // not listening yet
            }
        }

        String api() {
            return "http://127.0.0.1:" + apiPort;
        }
    }

    @Test
    void runsWithoutConfigurationPersistsAcrossRestartsAndDrainsOnSigterm() throws Exception {
        Path workDir = Files.createTempDirectory("portico-it");
        try (OriginServer origin = OriginServer.start("it")) {
            Running first = new Running(workDir);
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

            Running second = new Running(workDir);
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
        Running running = new Running(Files.createTempDirectory("portico-it"),
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
        Running running = new Running(Files.createTempDirectory("portico-it"),
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
        Map<String, String> environment = new HashMap<>(database());
        environment.put("PORTICO_ACCESS_LOG_FILE", "stdout");
        environment.put("PORTICO_ADMIN_TOKEN", "it-stdout-token-16");
        try (OriginServer origin = OriginServer.start("it-stdout")) {
            Running running = new Running(workDir, environment);
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

    /**
     * A fresh database on the tests' PostgreSQL when {@code PORTICO_TEST_DB_URL} names one (faster); otherwise
     * nothing, and the process starts its local PostgreSQL in its working directory.
     */
    private static Map<String, String> database() throws Exception {
        String url = System.getenv("PORTICO_TEST_DB_URL");
        if (url == null || url.isBlank()) {
            return Map.of();
        }
        String user = System.getenv().getOrDefault("PORTICO_TEST_DB_USER", "postgres");
        String password = System.getenv().getOrDefault("PORTICO_TEST_DB_PASSWORD", "postgres");
        String name = "portico_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("create database " + name);
        }
        return Map.of("QUARKUS_DATASOURCE_JDBC_URL", url.substring(0, url.lastIndexOf('/') + 1) + name,
                "QUARKUS_DATASOURCE_USERNAME", user, "QUARKUS_DATASOURCE_PASSWORD", password);
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
