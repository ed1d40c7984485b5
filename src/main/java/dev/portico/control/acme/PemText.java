package dev.portico.control.acme;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

/** PEM (RFC 7468) for what an order produces: the chain, leaf first, and the PKCS#8 private key. */
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

    private static String block(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + BASE64.encodeToString(der) + "\n-----END " + label + "-----\n";
    }
}
