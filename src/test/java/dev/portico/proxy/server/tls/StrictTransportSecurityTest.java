package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.nio.charset.StandardCharsets;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tls.hsts}: {@code Strict-Transport-Security} on every response over TLS, the vhost's value replacing the
 * upstream's, and never over cleartext (RFC 6797 section 7.2).
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StrictTransportSecurityTest extends HttpsVhostTestSupport {

    private static final String HOST = "hsts.test";
    private static final Issued ROOT = TestPki.ca("HSTS Root");
    private static final String POLICY = "max-age=63072000; includeSubDomains; preload";

    private final ScriptedOrigin origin = ScriptedOrigin.start();

    @BeforeEach
    void hstsVhost() {
        String id = upload(TestPki.leaf(ROOT, Kind.EC_P256, HOST));
        Api.create(httpsVhost("hsts", HOST, origin.url(), id, new JsonObject().put("hsts", new JsonObject()
                .put("maxAge", 63072000).put("includeSubDomains", true).put("preload", true)))
                .put("maxRequestBody", "10"));
    }

    @AfterEach
    void stopOrigin() {
        origin.close();
    }

    @Test
    void aForwardedResponseOverTlsCarriesTheVhostsPolicyInsteadOfTheUpstreams() throws Exception {
        origin.on("/page", Reply.of(200, "page", "Strict-Transport-Security", "max-age=0"));
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), HOST)) {
            RawHttp.Response reply = get(socket, HOST, "/page");
            assertEquals(200, reply.status(), reply.head());
            assertEquals(POLICY, reply.header("Strict-Transport-Security"));
            assertEquals(1, reply.head().split("(?i)strict-transport-security:", -1).length - 1, reply.head());
        }
    }

    @Test
    void localRepliesOverTlsCarryItToo() throws Exception {
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), HOST)) {
            RawHttp.Response notFound = get(socket, HOST, "/unscripted");
            assertEquals(404, notFound.status(), notFound.head());
            assertEquals(POLICY, notFound.header("Strict-Transport-Security"));
            socket.getOutputStream().write(("POST /upload HTTP/1.1\r\nHost: " + HOST
                    + "\r\nContent-Length: 100\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            RawHttp.Response tooLarge = RawHttp.readResponse(socket.getInputStream());
            assertEquals(413, tooLarge.status(), tooLarge.head());
            assertTrue(tooLarge.body().contains("request_body_too_large"), tooLarge.body());
            assertEquals(POLICY, tooLarge.header("Strict-Transport-Security"));
        }
    }

    @Test
    void cleartextResponsesNeverCarryIt() throws Exception {
        origin.on("/page", Reply.of(200, "page", "Strict-Transport-Security", "max-age=0"));
        RawHttp.Response reply = cleartext(dataPlane.port(), "GET /page HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n");
        assertEquals(200, reply.status(), reply.head());
        assertEquals("max-age=0", reply.header("Strict-Transport-Security"),
                "over cleartext the upstream's own header passes untouched");
        RawHttp.Response notFound = cleartext(dataPlane.port(), "GET /nothing HTTP/1.1\r\nHost: " + HOST
                + "\r\n\r\n");
        assertEquals(404, notFound.status());
        assertNull(notFound.header("Strict-Transport-Security"));
    }
}
