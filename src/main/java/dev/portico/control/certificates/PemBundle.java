package dev.portico.control.certificates;

import dev.portico.control.api.error.FieldError;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

import java.io.IOException;
import java.io.StringReader;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A certificate chain and its private key as operators have them: PEM, the chain leaf first; the key as PKCS#8
 * ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1 ({@code EC PRIVATE KEY}), which is what openssl,
 * certbot and the CAs' portals write. Parsed with BouncyCastle's PEM reader, without registering it as a provider:
 * the keys come out as the JDK's own types. Error messages never quote the input: it may hold a key.
 */
public record PemBundle(List<X509Certificate> chain, PrivateKey privateKey) {

    private static final JcaX509CertificateConverter CERTIFICATES = new JcaX509CertificateConverter();
    private static final JcaPEMKeyConverter KEYS = new JcaPEMKeyConverter();

    public PemBundle {
        chain = List.copyOf(chain);
    }

    /**
     * Reads both fields; each problem is added to {@code errors} under the field's name, and null is returned when
     * there was any.
     */
    static PemBundle parse(String certificatePem, String privateKeyPem, List<FieldError> errors) {
        List<X509Certificate> chain = chain(certificatePem, errors);
        PrivateKey key = privateKey(privateKeyPem, errors);
        return chain == null || key == null ? null : new PemBundle(chain, key);
    }

    private static List<X509Certificate> chain(String pem, List<FieldError> errors) {
        if (pem == null || pem.isBlank()) {
            errors.add(new FieldError("certificate", "is required: the PEM chain, leaf first"));
            return null;
        }
        List<X509Certificate> chain = new ArrayList<>();
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                if (!(block instanceof X509CertificateHolder)) {
                    errors.add(new FieldError("certificate", "must hold CERTIFICATE blocks only (found "
                            + kind(block) + (isKey(block) ? "; the key goes in privateKey" : "") + ")"));
                    return null;
                }
                chain.add(CERTIFICATES.getCertificate((X509CertificateHolder) block));
            }
        } catch (IOException | CertificateException | RuntimeException e) {
            errors.add(new FieldError("certificate", "is not a readable PEM certificate chain"));
            return null;
        }
        if (chain.isEmpty()) {
            errors.add(new FieldError("certificate", "holds no PEM CERTIFICATE block"));
            return null;
        }
        return chain;
    }

    private static PrivateKey privateKey(String pem, List<FieldError> errors) {
        if (pem == null || pem.isBlank()) {
            errors.add(new FieldError("privateKey", "is required: the PEM private key of the leaf certificate"));
            return null;
        }
        Object found = null;
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                if (found != null) {
                    errors.add(new FieldError("privateKey", "must hold exactly one private key"));
                    return null;
                }
                found = block;
            }
            if (found instanceof PEMEncryptedKeyPair || found instanceof PKCS8EncryptedPrivateKeyInfo) {
                errors.add(new FieldError("privateKey", "is encrypted with a passphrase: send it decrypted "
                        + "('openssl pkey -in key.pem -out plain.pem'); Portico encrypts it in the database itself"));
                return null;
            }
            if (found instanceof PEMKeyPair) {
                // The public half of a SEC1 key is optional: only the private key info is read.
                return KEYS.getPrivateKey(((PEMKeyPair) found).getPrivateKeyInfo());
            }
            if (found instanceof PrivateKeyInfo) {
                return KEYS.getPrivateKey((PrivateKeyInfo) found);
            }
        } catch (IOException | RuntimeException e) {
            errors.add(new FieldError("privateKey", "is not a readable PEM private key"));
            return null;
        }
        errors.add(new FieldError("privateKey", found == null ? "holds no PEM private key"
                : "must be a PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block (found " + kind(found) + ")"));
        return null;
    }

    private static boolean isKey(Object block) {
        return block instanceof PEMKeyPair || block instanceof PrivateKeyInfo || block instanceof PEMEncryptedKeyPair
                || block instanceof PKCS8EncryptedPrivateKeyInfo;
    }

    private static String kind(Object block) {
        return isKey(block) ? "a private key" : "a " + block.getClass().getSimpleName();
    }

    /** The chain as PEM, leaf first, written the same way whatever the input looked like. */
    public String chainPem() {
        StringBuilder out = new StringBuilder();
        Base64.Encoder encoder = Base64.getMimeEncoder(64, new byte[]{'\n'});
        for (X509Certificate certificate : chain) {
            try {
                out.append("-----BEGIN CERTIFICATE-----\n")
                        .append(encoder.encodeToString(certificate.getEncoded()))
                        .append("\n-----END CERTIFICATE-----\n");
            } catch (java.security.cert.CertificateEncodingException e) {
                throw new IllegalStateException("A parsed certificate encodes again", e);
            }
        }
        return out.toString();
    }
}
