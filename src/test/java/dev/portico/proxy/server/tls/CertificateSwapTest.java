package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static dev.portico.proxy.server.tls.TlsClients.openssl;
import static dev.portico.proxy.server.tls.TlsClients.presented;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTPS as an operator sets it up: a certificate uploaded through the API and named by a vhost is presented by the
 * data plane's own TLS listener, and a change of certificate is swapped in without a restart and without dropping an
 * open connection.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CertificateSwapTest extends DataPlaneTestSupport {

    private static final String HOST = "swap.test";
    private static final Issued ROOT = TestPki.ca("Swap Root");

    @AfterEach
    void clean() {
        Api.deleteAll();
        List<String> ids = Api.given().get("/api/v1/certificates").then().extract().path("id");
        ids.forEach(id -> Api.given().delete("/api/v1/certificates/" + id).then().statusCode(204));
    }

    private static String upload(Issued leaf) {
        return Api.given().body(new JsonObject().put("certificate", leaf.certificatePem())
                        .put("privateKey", leaf.pkcs8Pem()).encode())
                .post("/api/v1/certificates").then().statusCode(201).extract().path("id");
    }

    private static JsonObject httpsVhost(OriginServer origin, String certificateId) {
        return Api.vhost("swap", HOST, origin.url()).put("tls", new JsonObject().put("certificate", certificateId));
    }

    private static RawHttp.Response get(SSLSocket socket, String path) throws Exception {
        socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return RawHttp.readResponse(socket.getInputStream());
    }

    @Test
    void anUploadedCertificateIsServedAndAChangeKeepsOpenConnections() throws Exception {
        OriginServer origin = origin("swap");
        Issued first = TestPki.leaf(ROOT, Kind.EC_P256, HOST);
        Issued second = TestPki.leaf(ROOT, Kind.RSA_2048, HOST);
        String firstId = upload(first);
        String vhostId = Api.create(httpsVhost(origin, firstId));
        int port = dataPlane.tlsPort();

        try (SSLSocket kept = handshake(port, HOST)) {
            assertEquals(first.certificate(), presented(kept));
            RawHttp.Response before = get(kept, "/before");
            assertEquals(200, RawHttp.status(before.head()), before.head());
            assertEquals("https", origin.nextSeen().headers().get("X-Forwarded-Proto"));

            String secondId = upload(second);
            Api.given().body(httpsVhost(origin, secondId).encode()).put("/api/v1/vhosts/" + vhostId)
                    .then().statusCode(200);

            RawHttp.Response after = get(kept, "/after");
            assertEquals(200, RawHttp.status(after.head()), "the open connection still serves: " + after.head());
            assertEquals("/after", origin.nextSeen().uri());
            try (SSLSocket fresh = handshake(port, HOST)) {
                assertEquals(second.certificate(), presented(fresh), "a new handshake gets the new certificate");
            }
        }
    }

    @Test
    void aNameNoVhostCertificateCoversIsRefusedWithUnrecognizedName() throws Exception {
        OriginServer origin = origin("swap");
        Api.create(httpsVhost(origin, upload(TestPki.leaf(ROOT, Kind.EC_P256, HOST))));
        int port = dataPlane.tlsPort();

        assertThrows(SSLHandshakeException.class, () -> handshake(port, "other.test").close());
        String output = openssl(port, "-servername", "other.test");
        assertTrue(output.contains("unrecognized name"), output);
        try (SSLSocket socket = handshake(port, HOST)) {
            assertEquals(200, RawHttp.status(get(socket, "/").head()));
        }
    }
}
