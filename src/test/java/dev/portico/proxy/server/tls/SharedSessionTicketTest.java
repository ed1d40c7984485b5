package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.SessionTicketKeys;
import dev.portico.proxy.route.TlsTable;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.security.SecureRandom;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Session resumption across replicas: two listeners given the same session ticket keys (as two replicas reading
 * them from one database are) resume each other's sessions, on TLS 1.2 and 1.3, with BoringSSL. The JDK's engine
 * cannot be given keys and resumes only the sessions it issued itself.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SharedSessionTicketTest extends TlsListenerTestSupport {

    private static final String HOST = "resume.test";
    private static final SecureRandom RANDOM = new SecureRandom();

    private static TlsTable certificates;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certificates = TlsTable.of(Map.of(HOST, TestCertificates.ecdsa(HOST)), null);
    }

    private static byte[] randomKey() {
        byte[] key = new byte[SessionTicketKeys.KEY_BYTES];
        RANDOM.nextBytes(key);
        return key;
    }

    private int listen(TlsEngine engine, SessionTicketKeys keys) throws Exception {
        return listen(engine, certificates.withTicketKeys(keys));
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void aSessionFromOneListenerResumesOnAnotherWithTheSameKeys(String protocol) throws Exception {
        SessionTicketKeys shared = SessionTicketKeys.of(List.of(7L, 8L, 6L), List.of(randomKey(), randomKey(),
                randomKey()));
        int first = listen(TlsEngine.OPENSSL, shared);
        int second = listen(TlsEngine.OPENSSL, shared);
        Resumption client = new Resumption(HOST, protocol);

        client.start(first);

        assertTrue(client.resumesOn(second), "a ticket of the first listener resumes on the second");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void aTicketUnderAKeyThatOnlyDecryptsStillResumes(String protocol) throws Exception {
        byte[] previous = randomKey();
        int before = listen(TlsEngine.OPENSSL, SessionTicketKeys.of(List.of(1L), List.of(previous)));
        int after = listen(TlsEngine.OPENSSL, SessionTicketKeys.of(List.of(2L, 1L), List.of(randomKey(), previous)));
        int later = listen(TlsEngine.OPENSSL, SessionTicketKeys.of(List.of(3L, 2L), List.of(randomKey(),
                randomKey())));
        Resumption client = new Resumption(HOST, protocol);

        client.start(before);

        assertTrue(client.resumesOn(after), "the second key of the list decrypts");
        assertFalse(client.resumesOn(later), "a listener without the ticket's key makes a full handshake");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void withoutSharedKeysASessionResumesOnlyWhereItWasIssued(String protocol) throws Exception {
        int first = listen(TlsEngine.OPENSSL, SessionTicketKeys.NONE);
        int second = listen(TlsEngine.OPENSSL, SessionTicketKeys.NONE);
        Resumption client = new Resumption(HOST, protocol);

        client.start(first);

        assertFalse(client.resumesOn(second), "each listener has its own random keys");
        assertTrue(client.resumesOn(first), "the listener that issued the ticket resumes it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.2", "TLSv1.3"})
    void theJdkEngineResumesOnlyItsOwnSessionsWhateverTheKeys(String protocol) throws Exception {
        SessionTicketKeys shared = SessionTicketKeys.of(List.of(7L), List.of(randomKey()));
        int first = listen(TlsEngine.JDK, shared);
        int second = listen(TlsEngine.JDK, shared);
        Resumption client = new Resumption(HOST, protocol);

        client.start(first);

        assertFalse(client.resumesOn(second), "the JDK engine's ticket keys are its own");
        assertTrue(client.resumesOn(first), "the listener that issued the session resumes it");
    }
}
