package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLSocket;
import java.util.Map;

import static dev.portico.proxy.server.tls.TlsClients.exchange;
import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests read off a TLS connection go through the same pipeline as cleartext ones: forwarded with the scheme the
 * client used ({@code https}) in {@code X-Forwarded-Proto} and {@code Forwarded}, and read by the same strict
 * HTTP/1.1 guard, which refuses what a lenient parser would repair.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TlsForwardingTest extends TlsListenerTestSupport {

    private static final String HOST = "secure.test";

    private static TlsTable certificates;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TlsTable.of(Map.of(HOST, TestCertificates.ecdsa(HOST)), null);
    }

    private OriginServer origin;

    @BeforeEach
    void startOrigin() {
        origin = origin("secure");
        vhost("secure", HOST, origin);
    }

    /** Sends {@code request} over a TLS connection to a listener on {@code engine}; what came back until it closed. */
    private String sendOverTls(TlsEngine engine, String request) throws Exception {
        try (SSLSocket socket = handshake(listen(engine, certificates), HOST)) {
            return exchange(socket, request);
        }
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void aRequestOverTlsReachesTheOriginMarkedHttps(TlsEngine engine) throws Exception {
        String reply = sendOverTls(engine, "GET /hello HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n");

        assertEquals(200, RawHttp.status(reply), reply);
        OriginServer.Seen seen = origin.nextSeen();
        assertEquals("/hello", seen.uri());
        assertEquals("https", seen.headers().get("X-Forwarded-Proto"));
        String forwarded = seen.headers().get("Forwarded");
        assertTrue(forwarded.contains("proto=https") && forwarded.contains("host=" + HOST), forwarded);
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void theStrictGuardRefusesAFoldedHeaderOverTls(TlsEngine engine) throws Exception {
        // obs-fold: Netty's decoder would unfold it; the guard refuses it (RFC 9112 section 5.2).
        String reply = sendOverTls(engine, "GET / HTTP/1.1\r\nHost: " + HOST + "\r\nX-Folded: a\r\n b\r\n\r\n");

        assertEquals(400, RawHttp.status(reply), reply);
        assertTrue(reply.toLowerCase().contains("\r\nconnection: close\r\n"), reply);
        JsonObject problem = new JsonObject(reply.substring(reply.indexOf("\r\n\r\n") + 4));
        assertEquals("bad_request", problem.getString("reason"), reply);
        assertEquals(0, origin.requestCount(), "nothing reached the origin");
    }
}
