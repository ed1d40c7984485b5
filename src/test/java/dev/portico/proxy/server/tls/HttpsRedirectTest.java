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
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@code tls.httpsRedirect}: cleartext requests get a 308 to the same URL over https, before anything reaches the
 * upstream; ACME HTTP-01 challenges pass, and requests over TLS are served.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class HttpsRedirectTest extends HttpsVhostTestSupport {

    private static final String HOST = "redirect.test";
    private static final Issued ROOT = TestPki.ca("Redirect Root");

    private final ScriptedOrigin origin = ScriptedOrigin.start();

    @AfterEach
    void stopOrigin() {
        origin.close();
    }

    private void redirectingVhost() {
        String id = upload(TestPki.leaf(ROOT, Kind.EC_P256, HOST));
        Api.create(httpsVhost("redirect", HOST, origin.url(), id, new JsonObject().put("httpsRedirect", true)));
    }

    @Test
    void aCleartextRequestIsRedirectedToTheHttpsUrlWithItsTargetAsSent() throws Exception {
        redirectingVhost();
        origin.on("/shop/a%20b", Reply.of(200, "upstream"));

        RawHttp.Response reply = cleartext(dataPlane.port(), "GET /shop/a%20b?q=1&x=%C3%A9 HTTP/1.1\r\nHost: "
                + HOST + ":" + dataPlane.port() + "\r\n\r\n");

        assertEquals(308, reply.status(), reply.head());
        assertEquals("https://" + HOST + ":" + dataPlane.tlsPort() + "/shop/a%20b?q=1&x=%C3%A9",
                reply.header("Location"));
        assertEquals("0", reply.header("Content-Length"));
        assertNull(reply.header("Strict-Transport-Security"), "never over cleartext");
        assertEquals(0, origin.count("/shop/a%20b"), "nothing reaches the upstream");
    }

    @Test
    void aPostIsRedirectedToo() throws Exception {
        redirectingVhost();
        RawHttp.Response reply = cleartext(dataPlane.port(), "POST /form HTTP/1.1\r\nHost: " + HOST
                + "\r\nContent-Length: 5\r\n\r\nhello");
        assertEquals(308, reply.status(), reply.head());
        assertEquals("https://" + HOST + ":" + dataPlane.tlsPort() + "/form", reply.header("Location"));
    }

    @Test
    void acmeChallengesAreNotRedirected() throws Exception {
        redirectingVhost();
        origin.on("/.well-known/acme-challenge/token-1", Reply.of(200, "key-authorization"));

        RawHttp.Response reply = cleartext(dataPlane.port(), "GET /.well-known/acme-challenge/token-1 HTTP/1.1\r\n"
                + "Host: " + HOST + "\r\n\r\n");

        assertEquals(200, reply.status(), reply.head());
        assertEquals("key-authorization", reply.body());
    }

    @Test
    void requestsOverTlsAreServed() throws Exception {
        redirectingVhost();
        origin.on("/page", Reply.of(200, "secure"));
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), HOST)) {
            RawHttp.Response reply = get(socket, HOST, "/page");
            assertEquals(200, reply.status(), reply.head());
            assertEquals("secure", reply.body());
        }
    }
}
