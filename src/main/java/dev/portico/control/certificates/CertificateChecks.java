package dev.portico.control.certificates;

import dev.portico.control.api.error.FieldError;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECKey;
import java.security.interfaces.RSAKey;
import java.util.Date;
import java.util.List;
import java.util.Set;

/**
 * What an uploaded certificate must be before Portico stores it: a key that belongs to the leaf, strong enough for
 * today's clients (RSA of 2048 bits or more, ECDSA on P-256 or P-384: Mozilla's guidelines), a chain in order as far
 * as it is given (each certificate signed by the next; the root may be left out, as servers should), valid now, and
 * naming at least one host. Each failure is a field error, so the operator learns everything at once.
 */
final class CertificateChecks {

    static final int MIN_RSA_BITS = 2048;
    private static final Set<Integer> EC_CURVE_BITS = Set.of(256, 384);
    private static final SecureRandom RANDOM = new SecureRandom();

    private CertificateChecks() {
    }

    static void check(PemBundle bundle, Date now, List<FieldError> errors) {
        X509Certificate leaf = bundle.chain().get(0);
        PrivateKey key = bundle.privateKey();
        if (keyStrength(key, errors)) {
            keyMatches(leaf, key, errors);
        }
        chainInOrder(bundle.chain(), errors);
        try {
            leaf.checkValidity(now);
        } catch (CertificateExpiredException e) {
            errors.add(new FieldError("certificate", "expired on " + leaf.getNotAfter().toInstant()));
        } catch (CertificateNotYetValidException e) {
            errors.add(new FieldError("certificate", "is not valid before " + leaf.getNotBefore().toInstant()));
        }
        if (CertificateFacts.names(leaf).isEmpty()) {
            errors.add(new FieldError("certificate", "names no host: the leaf has no DNS subjectAltName and no "
                    + "common name"));
        }
    }

    /** Whether the key is of a kind and size Portico serves; adds the error when not. */
    private static boolean keyStrength(PrivateKey key, List<FieldError> errors) {
        if (key instanceof RSAKey) {
            int bits = ((RSAKey) key).getModulus().bitLength();
            if (bits < MIN_RSA_BITS) {
                errors.add(new FieldError("privateKey", "is an RSA key of " + bits + " bits; at least "
                        + MIN_RSA_BITS + " are needed"));
                return false;
            }
            return true;
        }
        if (key instanceof ECKey) {
            int bits = ((ECKey) key).getParams().getCurve().getField().getFieldSize();
            if (!EC_CURVE_BITS.contains(bits)) {
                errors.add(new FieldError("privateKey", "is an EC key on a " + bits + "-bit curve; use P-256 or "
                        + "P-384"));
                return false;
            }
            return true;
        }
        errors.add(new FieldError("privateKey", "must be an RSA or ECDSA key, not " + key.getAlgorithm()));
        return false;
    }

    /** Signs a random challenge with the key and checks it with the leaf's public key. */
    private static void keyMatches(X509Certificate leaf, PrivateKey key, List<FieldError> errors) {
        String algorithm = key instanceof RSAKey ? "SHA256withRSA" : "SHA256withECDSA";
        byte[] challenge = new byte[32];
        RANDOM.nextBytes(challenge);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(challenge);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false; // e.g. an EC key against an RSA certificate
        }
        if (!matches) {
            errors.add(new FieldError("privateKey", "does not belong to the leaf certificate (the first in "
                    + "certificate, subject " + leaf.getSubjectX500Principal().getName() + ")"));
        }
    }

    private static void chainInOrder(List<X509Certificate> chain, List<FieldError> errors) {
        for (int i = 0; i + 1 < chain.size(); i++) {
            X509Certificate child = chain.get(i);
            X509Certificate issuer = chain.get(i + 1);
            boolean signed = child.getIssuerX500Principal().equals(issuer.getSubjectX500Principal());
            if (signed) {
                try {
                    child.verify(issuer.getPublicKey());
                } catch (GeneralSecurityException e) {
                    signed = false;
                }
            }
            if (!signed) {
                errors.add(new FieldError("certificate", "is not in order: certificate " + (i + 2) + " ("
                        + issuer.getSubjectX500Principal().getName() + ") did not issue certificate " + (i + 1)
                        + " (issued by " + child.getIssuerX500Principal().getName() + "). Give the leaf first, each "
                        + "certificate followed by its issuer"));
                return;
            }
        }
    }
}
