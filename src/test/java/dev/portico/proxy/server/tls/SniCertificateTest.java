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
import java.util.Map;

import static dev.portico.proxy.server.tls.TestCertificates.subject;
import static dev.portico.proxy.server.tls.TlsClients.handshake;
import static dev.portico.proxy.server.tls.TlsClients.openssl;
import static dev.portico.proxy.server.tls.TlsClients.presented;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The certificate a handshake gets follows the name the client sent (SNI), as routing does: an exact name, then the
 * longest wildcard; a name nothing covers is refused with {@code unrecognized_name} unless a default certificate is
 * configured, which then also serves clients that send no name. On both engines, with real clients.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SniCertificateTest extends TlsListenerTestSupport {

    private static TlsTable.Entry rsaA;
    private static TlsTable.Entry ecdsaB;
    private static TlsTable.Entry wildcard;
    private static TlsTable.Entry deeperWildcard;
    private static TlsTable.Entry fallback;

    @BeforeAll
    static void makeCertificates() throws Exception {
        rsaA = TestCertificates.rsa("a.test");
        ecdsaB = TestCertificates.ecdsa("b.test");
        wildcard = TestCertificates.ecdsa("*.wild.test");
        deeperWildcard = TestCertificates.ecdsa("*.deep.wild.test");
        fallback = TestCertificates.ecdsa("default.test");
    }

    private static TlsTable named() {
        return TlsTable.of(Map.of("a.test", rsaA, "b.test", ecdsaB, "*.wild.test", wildcard,
                "*.deep.wild.test", deeperWildcard), null);
    }

    private static String presentedFor(int port, String serverName) throws Exception {
        try (SSLSocket socket = handshake(port, serverName)) {
            return subject(presented(socket));
        }
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void eachNameGetsItsOwnCertificateWhateverItsKeyType(TlsEngine engine) throws Exception {
        int port = listen(engine, named());

        assertEquals("CN=a.test", presentedFor(port, "a.test"));
        assertEquals("CN=b.test", presentedFor(port, "b.test"));
        assertEquals("CN=a.test", presentedFor(port, "A.Test"), "server names compare without case");
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void theLongestWildcardCoveringTheNameIsPresented(TlsEngine engine) throws Exception {
        int port = listen(engine, named());

        assertEquals("CN=*.wild.test", presentedFor(port, "x.wild.test"));
        assertEquals("CN=*.wild.test", presentedFor(port, "y.x.wild.test"), "any number of labels, as routing");
        assertEquals("CN=*.deep.wild.test", presentedFor(port, "x.deep.wild.test"));
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void aNameNoCertificateCoversIsRefusedWithUnrecognizedName(TlsEngine engine) throws Exception {
        int port = listen(engine, named());

        String unknown = openssl(port, "-servername", "unknown.test");
        String wildcardItself = openssl(port, "-servername", "wild.test");

        assertTrue(unknown.contains("alert number 112"), unknown);
        assertTrue(wildcardItself.contains("alert number 112"), "*.wild.test does not cover wild.test: "
                + wildcardItself);
        assertThrows(SSLHandshakeException.class, () -> handshake(port, "unknown.test").close());
    }

    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void theDefaultCertificateServesClientsWithoutANameAndUnknownNames(TlsEngine engine) throws Exception {
        int port = listen(engine, TlsTable.of(Map.of("a.test", rsaA), fallback));

        assertEquals("CN=default.test", presentedFor(port, null));
        assertEquals("CN=default.test", presentedFor(port, "unknown.test"));
        assertEquals("CN=a.test", presentedFor(port, "a.test"), "a named certificate still wins");
        String withoutName = openssl(port, "-noservername");
        assertTrue(withoutName.contains("subject=CN = default.test"), withoutName);
    }

    /**
     * Without a default, a client that sends no name has no certificate to get. The engines word the refusal
     * differently (BoringSSL: {@code internal_error}, the JDK: {@code handshake_failure}), which also shows which
     * engine served the handshake.
     */
    @ParameterizedTest
    @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
    void withoutADefaultAClientSendingNoNameIsRefused(TlsEngine engine) throws Exception {
        int port = listen(engine, named());

        String withoutName = openssl(port, "-noservername");

        String alert = engine == TlsEngine.OPENSSL ? "alert number 80" : "alert number 40";
        assertTrue(withoutName.contains(alert), withoutName);
    }
}
