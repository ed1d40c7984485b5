package dev.portico.control.acme;

import dev.portico.testing.Pebble;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.shredzone.acme4j.Login;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Orders against a real Pebble, HTTP-01 answered from {@code acme_challenge} rows (through {@link ChallengeStore})
 * by a loopback responder standing in for the data plane.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AcmeOrderTest {

    @Inject
    AcmeAccounts accounts;

    @Inject
    ChallengeStore challenges;

    @Inject
    DataSource dataSource;

    private Pebble pebble;
    private ChallengeResponder responder;
    private Login login;

    @BeforeAll
    void startPebble() throws Exception {
        Pebble.assumeInstalled();
        int httpPort = Pebble.freePort();
        responder = new ChallengeResponder(httpPort, challenges);
        pebble = Pebble.start(httpPort, Pebble.freePort(), Map.of());
        login = accounts.login(new AcmeDirectory(pebble.directoryUrl(),
                Optional.of(AcmeDirectory.trusting(pebble.caBundle())), Optional.empty(), Optional.empty()));
    }

    @AfterAll
    void stopPebble() {
        if (pebble != null) {
            pebble.close();
        }
        if (responder != null) {
            responder.close();
        }
    }

    @Test
    void obtainsACertificateWithHttp01AnsweredFromTheChallengeTable() throws Exception {
        List<String> orderUrls = new ArrayList<>();

        IssuedCertificate issued = new OrderRunner(Duration.ofSeconds(30))
                .run(login, List.of("a.acme.test"), challenges, orderUrls::add);

        assertTrue(responder.answered() >= 1, "Pebble fetched the key authorization from the responder");
        X509Certificate leaf = issued.leaf();
        assertTrue(leaf.getSubjectAlternativeNames().stream().anyMatch(san -> san.get(1).equals("a.acme.test")),
                "SANs: " + leaf.getSubjectAlternativeNames());
        List<X509Certificate> parsed = new ArrayList<>();
        CertificateFactory x509 = CertificateFactory.getInstance("X.509");
        x509.generateCertificates(new java.io.ByteArrayInputStream(issued.chainPem().getBytes(StandardCharsets.US_ASCII)))
                .forEach(c -> parsed.add((X509Certificate) c));
        assertEquals(issued.chain(), parsed, "the PEM chain is the parsed chain, leaf first");
        PKIXParameters trust = new PKIXParameters(Set.of(new TrustAnchor(pebble.issuingRoot(), null)));
        trust.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(x509.generateCertPath(parsed), trust);
        assertKeyMatches(issued.privateKeyPem(), leaf);
        assertEquals(List.of(issued.orderUrl()), orderUrls);
        assertEquals(0, count("select count(*) from acme_challenge where names_key = 'a.acme.test'"),
                "the tokens are withdrawn once the order is over");
    }

    @Test
    void aFailedValidationIsExplainedInTheCasWords() {
        AcmeFailure failure = assertThrows(AcmeFailure.class, () -> new OrderRunner(Duration.ofSeconds(30))
                .run(login, List.of("unanswered.acme.test"), challenges, url -> { }));

        assertEquals(Optional.of("urn:ietf:params:acme:error:unauthorized"), failure.problemType(),
                failure.getMessage());
        assertTrue(failure.detail().contains("404"), "Pebble's detail names the 404: " + failure.detail());
        assertTrue(failure.getMessage().contains(failure.detail()), failure.getMessage());
        assertEquals(Optional.empty(), failure.retryAfter());
        assertEquals(0, count("select count(*) from acme_challenge where names_key = 'unanswered.acme.test'"),
                "the tokens are withdrawn after a failure too");
    }

    private static void assertKeyMatches(String privateKeyPem, X509Certificate leaf) throws Exception {
        assertTrue(privateKeyPem.startsWith("-----BEGIN PRIVATE KEY-----\n"), privateKeyPem);
        String base64 = privateKeyPem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(
                new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        byte[] data = "proof of possession".getBytes(StandardCharsets.US_ASCII);
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(key);
        signer.update(data);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withECDSA");
        verifier.initVerify(leaf.getPublicKey());
        verifier.update(data);
        assertTrue(verifier.verify(signature), "the private key belongs to the leaf");
        assertFalse(leaf.getPublicKey().getAlgorithm().isEmpty());
    }

    private long count(String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
