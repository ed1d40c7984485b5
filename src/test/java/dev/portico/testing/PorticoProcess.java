package dev.portico.testing;

import io.restassured.RestAssured;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The packaged application as an operator runs it ({@code java -jar quarkus-run.jar}), in a process of its own on
 * free ports, with what it prints collected. For the tests of whole instances: start-up, restarts, replicas.
 */
public final class PorticoProcess {

    private static final List<Process> STARTED = new CopyOnWriteArrayList<>();

    public final Process process;
    public final StringBuffer output = new StringBuffer();
    public final Thread reader;
    public final int proxyPort = freePort();
    public final int tlsPort = freePort();
    public final int apiPort = freePort();
    public final int managementPort = freePort();

    /**
     * @param environment added to a clean environment (no token, no secret key, no datasource)
     * @param properties  system properties ({@code portico.acme.check-interval=2s}), after the ports
     */
    private PorticoProcess(Path workDir, Map<String, String> environment, Map<String, String> properties)
            throws IOException {
        Path app = Path.of(System.getProperty("portico.app.dir", "target/quarkus-app"), "quarkus-run.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java,
                "-Dportico.dataplane.port=" + proxyPort,
                "-Dportico.dataplane.tls-port=" + tlsPort,
                "-Dquarkus.http.port=" + apiPort,
                "-Dquarkus.management.port=" + managementPort,
                "-Dportico.dataplane.shutdown-grace=20s"));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", app.toAbsolutePath().toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        builder.environment().remove("PORTICO_ADMIN_TOKEN");
        builder.environment().remove("PORTICO_SECRET_KEY");
        builder.environment().remove("QUARKUS_DATASOURCE_JDBC_URL");
        builder.environment().putAll(environment);
        process = builder.start();
        STARTED.add(process);
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

    public static PorticoProcess start(Path workDir) throws IOException {
        return start(workDir, Map.of());
    }

    public static PorticoProcess start(Path workDir, Map<String, String> environment) throws IOException {
        return new PorticoProcess(workDir, environment, Map.of());
    }

    public static PorticoProcess start(Path workDir, Map<String, String> environment, Map<String, String> properties)
            throws IOException {
        return new PorticoProcess(workDir, environment, properties);
    }

    /** Kills every process started (and what it started, such as a local PostgreSQL); for {@code @AfterEach}. */
    public static void killAll() {
        for (Process process : STARTED) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        STARTED.clear();
    }

    public void awaitReady() throws InterruptedException {
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

    public String api() {
        return "http://127.0.0.1:" + apiPort;
    }

    /**
     * A fresh database on the tests' PostgreSQL when {@code PORTICO_TEST_DB_URL} names one (faster); otherwise
     * nothing, and the process starts its local PostgreSQL in its working directory.
     */
    public static Map<String, String> database() throws Exception {
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

    /**
     * A free port for a listener another process will bind later, taken below the kernel's ephemeral range
     * (/proc/sys/net/ipv4/ip_local_port_range): a port from that range, free when probed, can meanwhile become the
     * source port of any outgoing connection on the machine (a JDBC pool, an ACME client), and the later bind then
     * fails with "Address already in use" (seen in AcmeReplicasIT under CI).
     */
    public static int freePort() {
        int below = ephemeralRangeStart();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = random.nextInt(Math.min(10_000, below - 1), below);
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress(port));
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free port below " + below);
    }

    private static int ephemeralRangeStart() {
        try {
            // A line reader: /proc files report a size of 0, and Files.readString read only their first byte here.
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            int start = Integer.parseInt(range.split("\\s+")[0]);
            return start > 11_000 ? start : 32_768;
        } catch (IOException | RuntimeException unknown) {
            return 32_768;
        }
    }
}
