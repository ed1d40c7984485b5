package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static dev.portico.proxy.server.tls.TlsClients.openssl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TLS 1.2 and 1.3 only (Mozilla "intermediate"), TLS 1.3 only under "modern"; HTTP/1.1 the one protocol ALPN
 * offers; for TLS 1.2 the server's order of cipher suites wins over the client's. On both engines.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TlsProtocolVersionTest extends TlsListenerTestSupport {

    private static final String HOST = "versions.test";

    private static TlsTable certificates;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TlsTable.of(Map.of(HOST, TestCertificates.ecdsa(HOST)), null);
    }

    private static String negotiated(int port, String protocol) throws Exception {
        try (SSLSocket socket = handshake(port, HOST, protocol)) {
            return socket.getSession().getProtocol();
        }
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void tls12And13AreAcceptedAndTls11IsRefused(TlsEngine engine) throws Exception {
        int port = listen(engine, certificates);

        assertEquals("TLSv1.3", negotiated(port, "TLSv1.3"));
        assertEquals("TLSv1.2", negotiated(port, "TLSv1.2"));
        // The client's own floor lowered so that it does offer TLS 1.1: the refusal must be the server's.
        String tls11 = openssl(port, "-servername", HOST, "-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0");
        assertTrue(tls11.contains("alert protocol version") || tls11.contains("alert number 70"), tls11);
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void theModernProfileRefusesTls12(TlsEngine engine) throws Exception {
        int port = listen(engine, CipherProfile.MODERN, certificates);

        assertEquals("TLSv1.3", negotiated(port, "TLSv1.3"));
        assertThrows(SSLHandshakeException.class, () -> negotiated(port, "TLSv1.2"));
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void alpnSettlesOnHttp11EvenWhenTheClientPrefersH2(TlsEngine engine) throws Exception {
        int port = listen(engine, certificates);

        String reply = openssl(port, "-servername", HOST, "-alpn", "h2,http/1.1");

        assertTrue(reply.contains("ALPN protocol: http/1.1"), reply);
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void forTls12TheServersCipherOrderWins(TlsEngine engine) throws Exception {
        int port = listen(engine, certificates);

        // The client lists last what the server lists first.
        String reply = openssl(port, "-servername", HOST, "-tls1_2", "-cipher",
                "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256");

        assertTrue(reply.contains("Cipher is ECDHE-ECDSA-AES128-GCM-SHA256"), reply);
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void aClientThatNeverStartsItsHandshakeIsDisconnectedAfterTheHandshakeTimeout(TlsEngine engine)
            throws Exception {
        int port = listen(TlsTermination.fixed(certificates, engine.resolve(), CipherProfile.INTERMEDIATE,
                Duration.ofMillis(500)));

        try (Socket silent = new Socket(InetAddress.getLoopbackAddress(), port)) {
            silent.setSoTimeout(5000);
            long start = System.nanoTime();

            assertEquals(-1, silent.getInputStream().read(), "closed without a byte");
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(400), "not before the timeout");
        }
    }
}
