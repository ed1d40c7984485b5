package dev.portico.control.ocsp;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.PorticoProcess;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.TestPki;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OCSP stapling against a real responder ({@code openssl ocsp}): a good certificate's response is stapled in the
 * handshake, a revoked certificate gets none, and a certificate whose CA runs no responder gets none.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class OcspStaplingTest {

    private static final DateTimeFormatter INDEX_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    @Inject
    OcspStapling stapling;
    @Inject
    DataPlaneServer dataPlane;

    private Process responder;

    @AfterEach
    void clean() {
        if (responder != null) {
            responder.destroyForcibly();
        }
        Api.deleteAll();
        List<String> ids = Api.given().get("/api/v1/certificates").then().extract().path("id");
        ids.forEach(id -> Api.given().delete("/api/v1/certificates/" + id).then().statusCode(204));
    }

    @Test
    void aGoodCertificatesResponseIsStapledAndARevokedOneIsNot() throws Exception {
        TestPki.Issued ca = TestPki.ca("OCSP Root");
        int port = PorticoProcess.freePort();
        String url = "http://127.0.0.1:" + port + "/";
        TestPki.Issued good = TestPki.leafWithOcsp(ca, url, "good.ocsp.test");
        TestPki.Issued revoked = TestPki.leafWithOcsp(ca, url, "revoked.ocsp.test");
        TestPki.Issued silent = TestPki.leaf(ca, TestPki.Kind.EC_P256, "silent.ocsp.test");
        startResponder(ca, port, "V\t" + INDEX_TIME.format(good.certificate().getNotAfter().toInstant()) + "\t\t"
                        + good.certificate().getSerialNumber().toString(16).toUpperCase() + "\tunknown\t/CN=good.ocsp.test\n"
                        + "R\t" + INDEX_TIME.format(revoked.certificate().getNotAfter().toInstant()) + "\t"
                        + INDEX_TIME.format(Instant.now().minus(Duration.ofHours(1))) + "\t"
                        + revoked.certificate().getSerialNumber().toString(16).toUpperCase()
                        + "\tunknown\t/CN=revoked.ocsp.test\n");
        for (TestPki.Issued leaf : List.of(good, revoked, silent)) {
            String host = leaf.certificate().getSubjectX500Principal().getName().substring(3);
            String certificate = Api.given().body(new JsonObject()
                            .put("certificate", TestPki.pem(leaf.certificate(), ca.certificate()))
                            .put("privateKey", leaf.pkcs8Pem()).encode())
                    .post("/api/v1/certificates").then().statusCode(201).extract().path("id");
            Api.create(Api.vhost(host.substring(0, host.indexOf('.')), host, "http://127.0.0.1:9")
                    .put("tls", new JsonObject().put("certificate", certificate)));
        }

        stapling.refresh(Instant.now());

        String stapled = sClient("good.ocsp.test");
        assertTrue(stapled.contains("OCSP Response Status: successful") && stapled.contains("Cert Status: good"),
                stapled);
        assertTrue(sClient("revoked.ocsp.test").contains("no response sent"), "a revoked status is not stapled");
        assertTrue(sClient("silent.ocsp.test").contains("no response sent"), "no responder, nothing stapled");
    }

    private void startResponder(TestPki.Issued ca, int port, String index) throws Exception {
        Path dir = Files.createTempDirectory("portico-ocsp");
        Files.writeString(dir.resolve("index.txt"), index);
        Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
        Files.writeString(dir.resolve("ca.key"), ca.pkcs8Pem());
        responder = new ProcessBuilder("openssl", "ocsp", "-index", "index.txt", "-port", Integer.toString(port),
                "-rsigner", "ca.pem", "-rkey", "ca.key", "-CA", "ca.pem", "-ndays", "1")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("ocsp.log").toFile())
                .start();
        // Not probed with a connection: the responder serves one client at a time and would wait on the probe.
        Path log = dir.resolve("ocsp.log");
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(Files.exists(log)
                && readable(log).contains("waiting for OCSP client connections"), "the OCSP responder is not up yet"));
    }

    private static String readable(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** What {@code openssl s_client -status} printed about the data plane's handshake for {@code host}. */
    private String sClient(String host) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + dataPlane.tlsPort(), "-servername", host, "-status"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(new File("/dev/null")).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor(20, TimeUnit.SECONDS);
        return output;
    }
}
