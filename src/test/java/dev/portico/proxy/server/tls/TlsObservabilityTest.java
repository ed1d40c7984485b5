package dev.portico.proxy.server.tls;

import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.Api;
import dev.portico.testing.AccessLogLines;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.Scrape;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.SSLSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an operator sees of HTTPS: the TLS protocol, cipher and server name of each request in the JSON access log,
 * each presented certificate's expiry on the metrics endpoint, and certificates about to expire in the status.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TlsObservabilityTest extends HttpsVhostTestSupport {

    private static final Issued ROOT = TestPki.ca("Observability Root");

    @Inject
    AccessLog accessLog;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private static Issued leafValidFor(Duration validity, String... names) {
        return TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(validity), names);
    }

    @Test
    void theJsonAccessLogNamesTheTlsProtocolCipherAndServerName() throws Exception {
        String tlsId = "tls-log-" + UUID.randomUUID();
        String cleartextId = "cleartext-log-" + UUID.randomUUID();
        OriginServer origin = origin("logged");
        String id = upload(leafValidFor(Duration.ofDays(90), "logged.test"));
        Api.create(httpsVhost("logged", "logged.test", origin.url(), id, new JsonObject()));
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), "logged.test", "TLSv1.3")) {
            socket.getOutputStream().write(("GET /echo HTTP/1.1\r\nHost: logged.test\r\nX-Request-Id: " + tlsId
                    + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(200, RawHttp.readResponse(socket.getInputStream()).status());
            String cipher = socket.getSession().getCipherSuite();

            JsonObject line = AccessLogLines.ofRequest(accessLog.file().orElseThrow(), tlsId);
            assertEquals("https", line.getString("scheme"));
            assertEquals("TLSv1.3/" + cipher, line.getString("tls"));
            assertEquals("logged.test", line.getString("sni"));
        }
        RawHttp.Response clear = cleartext(dataPlane.port(), "GET /echo HTTP/1.1\r\nHost: logged.test\r\n"
                + "X-Request-Id: " + cleartextId + "\r\n\r\n");
        assertEquals(200, clear.status());
        JsonObject line = AccessLogLines.ofRequest(accessLog.file().orElseThrow(), cleartextId);
        assertEquals("http", line.getString("scheme"));
        assertTrue(line.containsKey("tls") && line.containsKey("sni"), line.encode());
        assertNull(line.getString("tls"));
        assertNull(line.getString("sni"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void handshakesAreCountedFullOrResumed(String protocol) throws Exception {
        OriginServer origin = origin("resumed-" + protocol.charAt(6));
        String host = "resumed" + protocol.charAt(6) + ".test";
        String id = upload(leafValidFor(Duration.ofDays(90), host));
        Api.create(httpsVhost("resumed-" + protocol.charAt(6), host, origin.url(), id, new JsonObject()));
        Resumption client = new Resumption(host, protocol);
        Scrape before = Scrape.of(metrics);

        client.start(dataPlane.tlsPort());
        boolean resumed = client.resumesOn(dataPlane.tlsPort()) & client.resumesOn(dataPlane.tlsPort());

        assertTrue(resumed, "the data plane resumes its own sessions");
        // Counted as the connection is handed over, before its first request: both are in by now (s_client read
        // the responses), but other tests' handshakes may add to the totals.
        Scrape after = Scrape.of(metrics);
        String full = "portico_tls_handshakes_total{resumed=\"false\"}";
        String again = "portico_tls_handshakes_total{resumed=\"true\"}";
        assertTrue(after.value(full) - before.value(full) >= 1, "full handshakes: " + after);
        assertTrue(after.value(again) - before.value(again) >= 2, "resumed handshakes: " + after);
        assertEquals(before.value("portico_tls_handshakes_total{resumed=\"unknown\"}"),
                after.value("portico_tls_handshakes_total{resumed=\"unknown\"}"), "BoringSSL tells them apart");
    }

    @Test
    void eachPresentedCertificatesExpiryIsAGauge() {
        String id = upload(leafValidFor(Duration.ofDays(30), "gauge.test", "www.gauge.test"));
        Api.create(Api.vhost("gauge", "gauge.test", "http://127.0.0.1:9")
                .put("hostnames", new io.vertx.core.json.JsonArray().add("www.gauge.test").add("gauge.test"))
                .put("tls", new JsonObject().put("certificate", id)));
        Eventually.within(Duration.ofSeconds(10), () -> {
            double seconds = Scrape.of(metrics).value(
                    "portico_certificate_expiry_seconds{certificate=\"" + id + "\",name=\"gauge.test\"}");
            assertTrue(seconds > Duration.ofDays(29).toSeconds() && seconds <= Duration.ofDays(30).toSeconds(),
                    "seconds left: " + seconds);
        });
    }

    @Test
    void theStatusWarnsOfACertificateExpiringWithinTwoWeeks() {
        String soon = upload(leafValidFor(Duration.ofDays(5), "soon.test"));
        String later = upload(leafValidFor(Duration.ofDays(60), "later.test"));
        Api.create(Api.vhost("soon", "soon.test", "http://127.0.0.1:9").put("tls",
                new JsonObject().put("certificate", soon)));
        Api.create(Api.vhost("later", "later.test", "http://127.0.0.1:9").put("tls",
                new JsonObject().put("certificate", later)));

        Api.given().get("/api/v1/status").then().statusCode(200)
                .body("certificateWarnings", hasSize(1))
                .body("certificateWarnings[0].certificate", equalTo(soon))
                .body("certificateWarnings[0].names", is(List.of("soon.test")))
                .body("certificateWarnings[0].notAfter", containsString("T"))
                .body("certificateWarnings[0].problem", containsString("expires in 4 days"));
    }

    @Test
    void theStatusHasNoCertificateWarningsWhenAllIsWell() {
        Api.given().get("/api/v1/status").then().statusCode(200).body("certificateWarnings", hasSize(0))
                .body("$", hasKey("certificateWarnings"));
    }
}
