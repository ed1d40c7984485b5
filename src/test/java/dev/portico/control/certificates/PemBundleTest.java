package dev.portico.control.certificates;

import dev.portico.control.api.error.FieldError;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PemBundleTest {

    private static final Issued ROOT = TestPki.ca("Root");

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"RSA_2048", "EC_P256"})
    void keysAreReadInEveryFormOperatorsHaveThem(Kind kind) {
        Issued leaf = TestPki.leaf(ROOT, kind, "a.test");
        for (String key : List.of(leaf.pkcs8Pem(), leaf.traditionalPem())) {
            List<FieldError> errors = new ArrayList<>();
            PemBundle bundle = PemBundle.parse(TestPki.pem(leaf.certificate(), ROOT.certificate()), key, errors);
            assertEquals(List.of(), errors, key.lines().findFirst().orElse(""));
            assertEquals(secret(leaf.keys().getPrivate()), secret(bundle.privateKey()));
            assertEquals(2, bundle.chain().size());
            assertTrue(bundle.chainPem().startsWith("-----BEGIN CERTIFICATE-----\n"));
        }
    }

    /** The secret number of a key, whatever extras (curve, public point) its encoding carries. */
    private static java.math.BigInteger secret(java.security.PrivateKey key) {
        return key instanceof java.security.interfaces.ECPrivateKey
                ? ((java.security.interfaces.ECPrivateKey) key).getS()
                : ((java.security.interfaces.RSAPrivateKey) key).getPrivateExponent();
    }
}
