package dev.portico.control.acme;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;

/** PEM (RFC 7468) for what ACME produces: certificate chains (leaf first), PKCS#8 private keys, account key pairs. */
final class PemText {

    private static final Base64.Encoder BASE64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));

    private PemText() {
    }

    static String certificates(List<X509Certificate> chain) {
        StringBuilder pem = new StringBuilder();
        for (X509Certificate certificate : chain) {
            try {
                pem.append(block("CERTIFICATE", certificate.getEncoded()));
            } catch (CertificateEncodingException e) {
                throw new IllegalStateException("the CA's certificate does not encode again", e);
            }
        }
        return pem.toString();
    }

    /** {@code BEGIN PRIVATE KEY}: the JDK encodes EC and RSA private keys as PKCS#8. */
    static String privateKey(PrivateKey key) {
        return block("PRIVATE KEY", key.getEncoded());
    }

    /**
     * An EC key pair as two PEM blocks, {@code PRIVATE KEY} (PKCS#8) then {@code PUBLIC KEY} (SPKI): the JDK reads
     * both back without BouncyCastle's provider, and the public key need not be derived from the private one.
     */
    static String ecKeyPair(KeyPair keyPair) {
        return privateKey(keyPair.getPrivate()) + block("PUBLIC KEY", keyPair.getPublic().getEncoded());
    }

    /** Reads what {@link #ecKeyPair} wrote. */
    static KeyPair readEcKeyPair(String pem) {
        try {
            KeyFactory ec = KeyFactory.getInstance("EC");
            return new KeyPair(ec.generatePublic(new X509EncodedKeySpec(der(pem, "PUBLIC KEY"))),
                    ec.generatePrivate(new PKCS8EncodedKeySpec(der(pem, "PRIVATE KEY"))));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an EC key pair: " + e.getMessage(), e);
        }
    }

    private static byte[] der(String pem, String label) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        int from = pem.indexOf(begin);
        int to = pem.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("no " + label + " block");
        }
        return Base64.getMimeDecoder().decode(pem.substring(from + begin.length(), to));
    }

    private static String block(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + BASE64.encodeToString(der) + "\n-----END " + label + "-----\n";
    }
}
