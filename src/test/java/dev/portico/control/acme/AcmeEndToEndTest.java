package dev.portico.control.acme;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.OriginServer;
import dev.portico.testing.Pebble;
import dev.portico.testing.PebbleResource;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.sql.DataSource;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Automatic certificates end to end against a real ACME server (Pebble): Portico orders, answers the HTTP-01
 * challenge on its own data plane, stores and serves the certificate, renews it on demand, explains a failure in the
 * CA's words, and among two renewers sharing the database exactly one orders.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = PebbleResource.class, restrictToAnnotatedClass = true)
class AcmeEndToEndTest {

    private static final String HOST = "shop.acme.test";

    @Inject
    AcmeRenewer renewer;
    @Inject
    DataPlaneServer dataPlane;
    @Inject
    DataSource dataSource;
    @Inject
    AcmeSettings settings;
    @Inject
    AcmeEnrollment enrollment;
    @Inject
    AcmeStateStore states;
    @Inject
    OrderLedger ledger;
    @Inject
    AcmeAccounts accounts;
    @Inject
    AcmeDirectory directory;
    @Inject
    OrderRunner runner;
    @Inject
    RenewalSchedule schedule;
    @Inject
    IssuedCertificateStore certificates;
    @Inject
    SnapshotChallenges challenges;
    @Inject
    dev.portico.control.store.VhostRepository vhosts;
    @Inject
    dev.portico.control.snapshot.SnapshotReloader reloader;
    @Inject
    io.micrometer.core.instrument.MeterRegistry metrics;
    @Inject
    AcmeStateMetrics stateMetrics;

    @io.quarkus.test.common.http.TestHTTPResource(value = "/metrics", management = true)
    java.net.URL metricsUrl;

    private OriginServer origin;

    @BeforeEach
    void start() {
        Pebble.assumeInstalled();
        origin = OriginServer.start("acme-origin", "127.0.0.1");
    }

    @AfterEach
    void clean() {
        if (origin != null) {
            origin.close();
        }
        Api.deleteAll();
    }

    private String acmeVhost(String name, String hostname) {
        return Api.create(Api.vhost(name, hostname, origin.url()).put("tls", new JsonObject().put("acme", true)
                .put("hsts", new JsonObject())));
    }

    @Test
    void aCertificateIsObtainedServedAndRenewed() throws Exception {
        String id = acmeVhost("shop", HOST);
        Api.given().get("/api/v1/vhosts/" + id + "/acme").then().statusCode(200).body("state", equalTo("pending"));

        assertEquals(1, renewer.runRound());

        String first = Api.given().get("/api/v1/vhosts/" + id + "/acme").then().statusCode(200)
                .body("state", equalTo("valid")).body("lastError", nullValue()).body("attempts", equalTo(0))
                .body("nextAttemptAt", notNullValue()).body("renewer", notNullValue())
                .extract().path("certificateId");
        Api.given().get("/api/v1/certificates/" + first).then().statusCode(200)
                .body("source", equalTo("acme")).body("names", equalTo(List.of(HOST)));
        X509Certificate served = fetchOverTls(HOST);
        assertTrue(served.getSubjectAlternativeNames().toString().contains(HOST));

        Api.given().post("/api/v1/vhosts/" + id + "/acme/renew").then().statusCode(202);
        assertEquals(1, renewer.runRound());
        String second = Api.given().get("/api/v1/vhosts/" + id + "/acme").then().statusCode(200)
                .body("state", equalTo("valid")).extract().path("certificateId");
        assertNotEquals(first, second);
        X509Certificate renewed = fetchOverTls(HOST);
        assertNotEquals(served.getSerialNumber(), renewed.getSerialNumber(), "the renewed certificate is served");
        Api.given().get("/api/v1/certificates/" + first).then().statusCode(404);
        assertEquals(0, renewer.runRound(), "nothing is due until the renewal time");
    }

    @Test
    void aFailedOrderIsExplainedInTheCasWordsAndRetriedLater() {
        String id = acmeVhost("bad", "bad_name.acme.test");

        renewer.runRound();

        Api.given().get("/api/v1/vhosts/" + id + "/acme").then().statusCode(200)
                .body("state", equalTo("failed"))
                .body("lastError", containsString("urn:ietf:params:acme:error:"))
                .body("attempts", equalTo(1))
                .body("certificateId", nullValue());
        String next = Api.given().get("/api/v1/vhosts/" + id + "/acme").then().extract().path("nextAttemptAt");
        assertTrue(java.time.Instant.parse(next).isAfter(java.time.Instant.now().plusSeconds(60 * 29)), next);
        stateMetrics.refresh();
        String scrape = io.restassured.RestAssured.given().get(metricsUrl).asString();
        assertTrue(scrape.contains("portico_acme_certificate_state{state=\"failed\",vhost=\"bad\"} 1.0"), scrape);
    }

    @Test
    void ofTwoRenewersSharingTheDatabaseExactlyOneOrders() throws Exception {
        acmeVhost("twin", "twin.acme.test");
        AcmeRenewer other = new AcmeRenewer(settings,
                new RenewerLease(dataSource, "other-replica", settings.leaseTtl()), enrollment, states, ledger,
                accounts, directory, runner, schedule, certificates, challenges, vhosts, reloader, metrics,
                stateMetrics);

        CompletableFuture<Integer> mine = CompletableFuture.supplyAsync(renewer::runRound);
        CompletableFuture<Integer> theirs = CompletableFuture.supplyAsync(other::runRound);
        List<Integer> rounds = List.of(mine.get(), theirs.get());

        assertTrue(rounds.contains(-1) && (rounds.contains(1) || rounds.contains(0)), rounds.toString());
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet orders = statement.executeQuery(
                     "select count(*) from acme_order where names_key = 'twin.acme.test'")) {
            orders.next();
            assertEquals(1, orders.getInt(1), "exactly one order for the names");
        }
    }

    /** The certificate served for {@code host}, checked against Pebble's issuing root, after a GET through it. */
    private X509Certificate fetchOverTls(String host) throws Exception {
        KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
        roots.load(null, null);
        roots.setCertificateEntry("pebble", PebbleResource.pebble().issuingRoot());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(roots);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), dataPlane.tlsPort())) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName(host)));
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /hello HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            RawHttp.Response response = RawHttp.readResponse(socket.getInputStream());
            assertEquals(200, RawHttp.status(response.head()), response.head());
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
