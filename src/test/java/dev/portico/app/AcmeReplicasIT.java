package dev.portico.app;

import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.Pebble;
import dev.portico.testing.PorticoProcess;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Portico instances on one database and a real ACME server (Pebble): exactly one of them orders, the other serves
 * what it obtained; the challenge is answered by whichever instance the CA reaches; when the renewer dies, the
 * other takes its lease over and renews.
 */
class AcmeReplicasIT {

    private static final String HOST = "replica.acme.test";
    private static final String TOKEN = "acme-replicas-token-16";

    private Pebble pebble;

    @AfterEach
    void stop() {
        PorticoProcess.killAll();
        if (pebble != null) {
            pebble.close();
        }
    }

    @Test
    void oneReplicaOrdersBothServeAndTheSurvivorTakesOver() throws Exception {
        Pebble.assumeInstalled();
        Map<String, String> database = PorticoProcess.database();
        Assumptions.assumeFalse(database.isEmpty(), "needs PORTICO_TEST_DB_URL: both instances share one database");
        // The CA validates on the cleartext port of the instance that does NOT order at first ("answering").
        int answeringPort = PorticoProcess.freePort();
        pebble = Pebble.start(answeringPort, PorticoProcess.freePort(), Map.of());
        Map<String, String> environment = new HashMap<>(database);
        environment.put("PORTICO_ADMIN_TOKEN", TOKEN);
        environment.put("PORTICO_SECRET_KEY", "ab".repeat(32));
        Map<String, String> acme = Map.of("portico.acme.directory-url", pebble.directoryUrl(),
                "portico.acme.ca-bundle", pebble.caBundle().toString(),
                "portico.acme.check-interval", "1s", "portico.acme.lease-ttl", "5s");

        PorticoProcess ordering = PorticoProcess.start(Files.createTempDirectory("portico-acme-a"), environment, acme);
        ordering.awaitReady();
        Eventually.within(Duration.ofSeconds(20), () -> assertTrue(
                ordering.output.toString().contains("renews ACME certificates"), "the first instance holds the lease"));
        Map<String, String> answeringProperties = new HashMap<>(acme);
        answeringProperties.put("portico.dataplane.port", Integer.toString(answeringPort));
        PorticoProcess answering = PorticoProcess.start(Files.createTempDirectory("portico-acme-b"), environment,
                answeringProperties);
        answering.awaitReady();

        try (OriginServer origin = OriginServer.start("acme-replicas")) {
            JsonObject vhost = new JsonObject().put("name", "replica").put("hostnames", new JsonArray().add(HOST))
                    .put("upstreams", new JsonArray().add(new JsonObject().put("url", origin.url())))
                    .put("tls", new JsonObject().put("acme", true));
            String id = api(answering).body(vhost.encode()).post(answering.api() + "/api/v1/vhosts")
                    .then().statusCode(201).extract().path("id");

            String first = awaitValid(answering, id, null);
            assertEquals(1, orders(database), "exactly one instance ordered");
            assertTrue(!answering.output.toString().contains("renews ACME certificates"),
                    "the answering instance never held the lease:\n" + answering.output);
            BigInteger served = Eventually.value(Duration.ofSeconds(10), () -> servedSerial(answering.tlsPort),
                    serial -> serial != null);
            assertEquals(served, servedSerial(ordering.tlsPort), "both instances serve the one certificate");

            ordering.process.destroyForcibly();
            api(answering).post(answering.api() + "/api/v1/vhosts/" + id + "/acme/renew").then().statusCode(202);
            String second = awaitValid(answering, id, first);
            assertTrue(answering.output.toString().contains("renews ACME certificates"),
                    "the survivor took the lease over:\n" + answering.output);
            assertEquals(2, orders(database));
            // The ACME state is committed first; the snapshot carrying the new certificate reaches the listener
            // just after (reload, then each loop's swap): served within seconds, not at the same instant.
            Eventually.within(Duration.ofSeconds(10), () -> assertNotEquals(served, servedSerial(answering.tlsPort),
                    "the renewed certificate is served"));
            assertNotEquals(first, second);
        }
    }

    private static RequestSpecification api(PorticoProcess instance) {
        return RestAssured.given().header("Authorization", "Bearer " + TOKEN).contentType(ContentType.JSON);
    }

    /** Waits until the vhost's ACME state is valid with a certificate other than {@code previous}; its id. */
    private static String awaitValid(PorticoProcess instance, String vhostId, String previous) throws Exception {
        try {
            return Eventually.value(Duration.ofSeconds(60), () -> {
                JsonObject status = new JsonObject(api(instance).get(instance.api() + "/api/v1/vhosts/" + vhostId
                        + "/acme").asString());
                String certificate = status.getString("certificateId");
                return "valid".equals(status.getString("state")) && certificate != null
                        && !certificate.equals(previous) ? certificate : null;
            }, certificate -> certificate != null);
        } catch (AssertionError notInTime) {
            throw new AssertionError("no certificate in time: " + api(instance).get(instance.api()
                    + "/api/v1/vhosts/" + vhostId + "/acme").asString() + "\n" + instance.output, notInTime);
        }
    }

    private static int orders(Map<String, String> database) throws Exception {
        try (Connection connection = DriverManager.getConnection(database.get("QUARKUS_DATASOURCE_JDBC_URL"),
                database.get("QUARKUS_DATASOURCE_USERNAME"), database.get("QUARKUS_DATASOURCE_PASSWORD"));
             Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("select count(*) from acme_order where names_key = '" + HOST
                     + "' and state = 'valid'")) {
            count.next();
            return count.getInt(1);
        }
    }

    /** The serial of the certificate served for {@link #HOST} on {@code port}, trusted through Pebble's root only. */
    private BigInteger servedSerial(int port) {
        try {
            KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
            roots.load(null, null);
            roots.setCertificateEntry("pebble", pebble.issuingRoot());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(roots);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), port)) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setServerNames(List.of(new SNIHostName(HOST)));
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                socket.setSSLParameters(parameters);
                socket.setSoTimeout(10_000);
                socket.startHandshake();
                return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
            }
        } catch (Exception notServedYet) {
            return null;
        }
    }
}
