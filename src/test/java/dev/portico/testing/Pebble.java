package dev.portico.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Let's Encrypt's test ACME server, the Debian {@code pebble} package, run on loopback for one test class: {@code pebble}
 * itself, and {@code pebble-challtestsrv} as its DNS server, which resolves every name to 127.0.0.1 so Pebble
 * validates HTTP-01 against {@code httpPort} (and TLS-ALPN-01 against {@code tlsPort}) on this machine, where the
 * test (or Portico) answers. Every port is a free loopback port picked here, so parallel runs do not collide.
 * <p>
 * Pebble's own HTTPS listener gets a certificate made at start with the openssl CLI (Debian's package ships none);
 * {@link #caBundle()} is the PEM to trust for it. Pebble makes a new issuing root on every start: {@link #issuingRoot()}.
 * <p>
 * Without the binaries the test is skipped locally, but fails under CI ({@code CI=true}), so CI cannot silently skip
 * the ACME tests.
 */
public final class Pebble implements AutoCloseable {

    public static final Path PEBBLE = Path.of("/usr/bin/pebble");
    public static final Path CHALLTESTSRV = Path.of("/usr/bin/pebble-challtestsrv");
    /** The MAC keys of Debian's example EAB configuration (pebble-config-external-account-bindings.json). */
    public static final Map<String, String> EAB_KEYS = Map.of(
            "kid-1", "zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path dir;
    private final int acmePort;
    private final int managementPort;
    private final Process pebble;
    private final Process challtestsrv;
    private final HttpClient client;

    private Pebble(Path dir, int acmePort, int managementPort, Process pebble, Process challtestsrv,
                   HttpClient client) {
        this.dir = dir;
        this.acmePort = acmePort;
        this.managementPort = managementPort;
        this.pebble = pebble;
        this.challtestsrv = challtestsrv;
        this.client = client;
    }

    /** Skips the test when Pebble is not installed, unless under CI, where that is a failure. */
    public static void assumeInstalled() {
        boolean installed = Files.isExecutable(PEBBLE) && Files.isExecutable(CHALLTESTSRV);
        if ("true".equals(System.getenv("CI"))) {
            Assertions.assertTrue(installed, "CI=true but " + PEBBLE + " or " + CHALLTESTSRV
                    + " is missing: .ci/run installs the Debian package pebble");
        }
        Assumptions.assumeTrue(installed, "Pebble is not installed (apt-get install pebble)");
    }

    /**
     * Starts Pebble validating challenges on {@code httpPort} (HTTP-01) and {@code tlsPort} (TLS-ALPN-01).
     *
     * @param eabKeys when not empty, accounts must bind to one of these key ids (External Account Binding) with
     *                its base64url MAC key
     */
    public static Pebble start(int httpPort, int tlsPort, Map<String, String> eabKeys) throws Exception {
        assumeInstalled();
        Path dir = Files.createTempDirectory("portico-pebble");
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"), dir);
        int acmePort = freePort();
        int managementPort = freePort();
        int dnsPort = freePort();
        int challManagementPort = freePort();
        StringBuilder eab = new StringBuilder();
        eabKeys.forEach((kid, mac) -> eab.append(eab.length() == 0 ? "" : ",")
                .append('"').append(kid).append("\":\"").append(mac).append('"'));
        Path config = dir.resolve("pebble-config.json");
        Files.writeString(config, """
                {"pebble": {
                  "listenAddress": "127.0.0.1:%d",
                  "managementListenAddress": "127.0.0.1:%d",
                  "certificate": "%s",
                  "privateKey": "%s",
                  "httpPort": %d,
                  "tlsPort": %d,
                  "ocspResponderURL": "",
                  "externalAccountBindingRequired": %b,
                  "externalAccountMACKeys": {%s}
                }}
                """.formatted(acmePort, managementPort, cert, key, httpPort, tlsPort, !eabKeys.isEmpty(), eab));
        Process challtestsrv = new ProcessBuilder(CHALLTESTSRV.toString(), "-defaultIPv4", "127.0.0.1",
                "-defaultIPv6", "", "-dns01", "127.0.0.1:" + dnsPort, "-http01", "", "-https01", "",
                "-tlsalpn01", "", "-management", "127.0.0.1:" + challManagementPort)
                .redirectErrorStream(true).redirectOutput(dir.resolve("challtestsrv.log").toFile()).start();
        ProcessBuilder pebbleCommand = new ProcessBuilder(PEBBLE.toString(), "-config", config.toString(),
                "-dnsserver", "127.0.0.1:" + dnsPort, "-strict=false")
                .redirectErrorStream(true).redirectOutput(dir.resolve("pebble.log").toFile());
        // No sleeps before validation, no refused good nonces, a fresh authorization for every order: fast and
        // deterministic tests.
        pebbleCommand.environment().put("PEBBLE_VA_NOSLEEP", "1");
        pebbleCommand.environment().put("PEBBLE_WFE_NONCEREJECT", "0");
        pebbleCommand.environment().put("PEBBLE_AUTHZREUSE", "0");
        Process pebble = pebbleCommand.start();
        Pebble started = new Pebble(dir, acmePort, managementPort, pebble, challtestsrv, trusting(cert));
        try {
            started.awaitDirectory();
        } catch (Exception | AssertionError e) {
            String log = started.log();
            started.close();
            throw new AssertionError("Pebble did not start: " + e + "\n" + log, e);
        }
        return started;
    }

    /** The ACME directory URL. */
    public String directoryUrl() {
        return "https://127.0.0.1:" + acmePort + "/dir";
    }

    /** The PEM file to trust for Pebble's own HTTPS listener (not the root it issues under). */
    public Path caBundle() {
        return dir.resolve("cert.pem");
    }

    /** The root Pebble issues certificates under (new on every start), from its management interface. */
    public X509Certificate issuingRoot() throws Exception {
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + managementPort + "/roots/0")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        Assertions.assertEquals(200, response.statusCode(), "GET /roots/0");
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(response.body()));
    }

    /** What Pebble has logged so far, for failure messages. */
    public String log() {
        try {
            return Files.readString(dir.resolve("pebble.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void awaitDirectory() {
        Eventually.within(START_TIMEOUT, () -> {
            if (!pebble.isAlive() || !challtestsrv.isAlive()) {
                // not worth waiting for: fail at once with the logs
                throw new IllegalStateException("a Pebble process exited");
            }
            try {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(directoryUrl()))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                Assertions.assertEquals(200, response.statusCode(), "GET /dir");
            } catch (IOException e) {
                throw new AssertionError("GET /dir: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        });
    }

    /** A free loopback port, for a listener that must be known before Pebble starts (its httpPort, tlsPort). */
    public static int freePort() throws IOException {
        return PorticoProcess.freePort();
    }

    private static HttpClient trusting(Path pem) throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            trust.setCertificateEntry("pebble", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(2)).build();
    }

    private static void run(List<String> command, Path dir) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(command + " failed: " + Files.readString(dir.resolve("openssl.log"),
                    StandardCharsets.UTF_8));
        }
    }

    /** Stops both processes (by their own handles, never by name) and removes the files. */
    @Override
    public void close() {
        for (Process process : List.of(pebble, challtestsrv)) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
