package dev.portico.control.acme;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

/**
 * New EC P-256 key pairs from the JDK's own provider, for accounts and certificates. (acme4j's
 * {@code KeyPairUtils.createECKeyPair} asks for the BouncyCastle provider by name, which Portico does not register:
 * BouncyCastle is used only as a library.) P-256 is what every ACME CA and TLS client accepts.
 */
final class P256KeyPairs {

    private P256KeyPairs() {
    }

    static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC P-256 is part of every JDK", e);
        }
    }
}
