package dev.portico.proxy.server.tls;

import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import dev.portico.testing.Scrape;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.net.URL;
import java.time.Duration;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code wwwRedirect}: a request for the other form of a name gets 308 to the canonical one, on the scheme it came in
 * on, with the port the client named and the path and query byte for byte; the canonical name is served.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class WwwRedirectTest extends HttpsVhostTestSupport {

    private static final String APEX = "wr.test";
    private static final String WWW = "www.wr.test";
    private static final Issued ROOT = TestPki.ca("Www Redirect Root");

    private final ScriptedOrigin origin = ScriptedOrigin.start();

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @AfterEach
    void stopOrigin() {
        origin.close();
    }

    private JsonObject vhost(String wwwRedirect) {
        return Api.vhost("wr", APEX, origin.url()).put("hostnames", new JsonArray().add(APEX).add(WWW))
                .put("wwwRedirect", wwwRedirect);
    }

    @Test
    void wwwGoesToTheApexWithPortPathAndQueryAsSent() throws Exception {
        String id = Api.create(vhost("to_apex"));
        Api.given().get(VHOSTS + "/" + id).then().statusCode(200).body("wwwRedirect", equalTo("to_apex"));
        String target = "/a%2Fb;v=1/c?x=%2F&y=a;b&z=%C3%A9&&";

        RawHttp.Response reply = cleartext(dataPlane.port(), "GET " + target + " HTTP/1.1\r\nHost: " + WWW + ":"
                + dataPlane.port() + "\r\n\r\n");

        assertEquals(308, reply.status(), reply.head());
        assertEquals("http://" + APEX + ":" + dataPlane.port() + target, reply.header("Location"));
        assertEquals("0", reply.header("Content-Length"));
        assertTrue(origin.seen().isEmpty(), "nothing reaches the upstream");
    }

    @Test
    void theCanonicalNameIsServedAndAHostWithoutPortGetsNone() throws Exception {
        Api.create(vhost("to_apex"));
        origin.on("/page", Reply.of(200, "apex"));

        RawHttp.Response served = cleartext(dataPlane.port(), "GET /page HTTP/1.1\r\nHost: " + APEX + "\r\n\r\n");
        RawHttp.Response redirected = cleartext(dataPlane.port(), "GET /page HTTP/1.1\r\nHost: WWW.wr.test.\r\n\r\n");

        assertEquals(200, served.status(), served.head());
        assertEquals("apex", served.body());
        assertNull(served.header("Location"));
        assertEquals(308, redirected.status(), redirected.head());
        assertEquals("http://" + APEX + "/page", redirected.header("Location"));
    }

    @Test
    void theApexGoesToWwwAndWwwIsServed() throws Exception {
        Api.create(vhost("to_www"));
        origin.on("/", Reply.of(200, "www"));

        RawHttp.Response redirected = cleartext(dataPlane.port(), "GET /?q HTTP/1.1\r\nHost: " + APEX + "\r\n\r\n");
        RawHttp.Response served = cleartext(dataPlane.port(), "GET / HTTP/1.1\r\nHost: " + WWW + "\r\n\r\n");

        assertEquals(308, redirected.status(), redirected.head());
        assertEquals("http://" + WWW + "/?q", redirected.header("Location"));
        assertEquals(200, served.status(), served.head());
        assertEquals("www", served.body());
    }

    @Test
    void aPostGets308SoItsMethodAndBodyAreKeptAndItIsCounted() throws Exception {
        Api.create(vhost("to_apex"));
        String series = "portico_local_replies_total{reason=\"www_redirect\"}";
        double before = Scrape.of(metrics).valueOrZero(series);
        RawHttp.Response reply = cleartext(dataPlane.port(), "POST /form HTTP/1.1\r\nHost: " + WWW
                + "\r\nContent-Length: 5\r\n\r\nhello");
        assertEquals(308, reply.status(), reply.head());
        assertEquals("http://" + APEX + "/form", reply.header("Location"));
        assertTrue(origin.seen().isEmpty(), "nothing reaches the upstream");
        Eventually.within(Duration.ofSeconds(10), () -> assertEquals(before + 1,
                Scrape.of(metrics).valueOrZero(series), "counted like any local reply"));
    }

    @Test
    void overTlsTheLocationIsHttps() throws Exception {
        String id = upload(TestPki.leaf(ROOT, Kind.EC_P256, APEX, WWW));
        Api.create(vhost("to_apex").put("tls", new JsonObject().put("certificate", id)));
        try (SSLSocket socket = handshake(dataPlane.tlsPort(), WWW)) {
            RawHttp.Response reply = get(socket, WWW + ":" + dataPlane.tlsPort(), "/x?y=%2F");
            assertEquals(308, reply.status(), reply.head());
            assertEquals("https://" + APEX + ":" + dataPlane.tlsPort() + "/x?y=%2F", reply.header("Location"));
        }
    }

    @Test
    void withTheHttpsRedirectHttpGoesToHttpsOnTheSameNameFirst() throws Exception {
        String id = upload(TestPki.leaf(ROOT, Kind.EC_P256, APEX, WWW));
        Api.create(vhost("to_apex").put("tls", new JsonObject().put("certificate", id).put("httpsRedirect", true)));

        RawHttp.Response reply = cleartext(dataPlane.port(), "GET /p HTTP/1.1\r\nHost: " + WWW + "\r\n\r\n");

        assertEquals(308, reply.status(), reply.head());
        assertEquals("https://" + WWW + ":" + dataPlane.tlsPort() + "/p", reply.header("Location"),
                "the https redirect keeps the name, so HSTS can cover www too");
    }

    @Test
    void aTargetMissingFromHostnamesIsRefusedNamingWwwRedirect() {
        JsonObject lone = Api.vhost("wr", WWW, origin.url()).put("hostnames",
                new JsonArray().add(APEX).add(WWW).add("www.other.test")).put("wwwRedirect", "to_apex");
        assertInvalid(Api.given().body(lone.encode()).post(VHOSTS), "wwwRedirect")
                .body("errors.reason", hasItem(containsString("other.test")));

        JsonObject none = Api.vhost("wr", APEX, origin.url()).put("wwwRedirect", "to_www");
        assertInvalid(Api.given().body(none.encode()).post(VHOSTS), "wwwRedirect");

        JsonObject unknown = vhost("www");
        assertInvalid(Api.given().body(unknown.encode()).post(VHOSTS), "wwwRedirect");
    }
}
