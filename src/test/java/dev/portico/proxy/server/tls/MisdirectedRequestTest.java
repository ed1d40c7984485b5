package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import dev.portico.proxy.route.TlsTable;

import javax.net.ssl.SSLSocket;
import java.security.cert.X509Certificate;
import java.util.Map;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 421 Misdirected Request (RFC 9110 section 15.5.20): over TLS, a request whose Host routes to another vhost than
 * the server name its connection's handshake asked for is refused; vhosts are compared, not names.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class MisdirectedRequestTest extends HttpsVhostTestSupport {

    private static final Issued ROOT = TestPki.ca("Misdirected Root");

    /** Two vhosts, {@code *.a.test} and {@code b.test}, each with its own certificate. */
    private OriginServer twoVhosts() {
        OriginServer origin = origin("misdirected");
        String a = upload(TestPki.leaf(ROOT, Kind.EC_P256, "*.a.test"));
        String b = upload(TestPki.leaf(ROOT, Kind.EC_P256, "b.test"));
        Api.create(httpsVhost("a", "*.a.test", origin.url(), a, new JsonObject())
                .put("hostnames", new JsonArray().add("*.a.test")));
        Api.create(httpsVhost("b", "b.test", origin.url(), b, new JsonObject()));
        return origin;
    }

    @Test
    void aHostOfAnotherVhostThanTheServerNameIsRefusedWith421() throws Exception {
        twoVhosts();
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), "x.a.test")) {
            RawHttp.Response reply = get(socket, "b.test", "/echo");
            assertEquals(421, reply.status(), reply.head());
            assertTrue(reply.body().contains("\"misdirected_request\""), reply.body());
            assertEquals(200, get(socket, "x.a.test", "/echo").status(), "the connection still serves its own vhost");
        }
    }

    @Test
    void anotherNameOfTheSameVhostIsServed() throws Exception {
        twoVhosts();
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), "x.a.test")) {
            RawHttp.Response reply = get(socket, "y.a.test:" + dataPlane.tlsPort(), "/echo");
            assertEquals(200, reply.status(), reply.head());
            assertEquals(200, get(socket, "X.A.TEST.", "/echo").status(), "Host normalised as routing does");
        }
    }

    @Test
    void aConnectionTheDefaultCertificateServedIsNotRefused() throws Exception {
        // A listener whose default certificate serves clients that send no name, or a name no vhost has: that
        // certificate chose no vhost, so no Host is misdirected on such a connection.
        twoVhosts();
        Issued fallback = TestPki.leaf(ROOT, Kind.EC_P256, "fallback.test");
        int port = listen(TlsEngine.AUTO, TlsTable.of(Map.of(),
                new TlsTable.Entry("fallback", new X509Certificate[] {fallback.certificate()},
                        fallback.keys().getPrivate())));
        try (SSLSocket socket = handshake(port, null)) {
            assertEquals(200, get(socket, "b.test", "/echo").status());
            assertEquals(200, get(socket, "x.a.test", "/echo").status());
        }
        try (SSLSocket socket = handshake(port, "unknown.test")) {
            assertEquals(200, get(socket, "b.test", "/echo").status());
        }
    }
}
