package dev.portico.control.acme;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A certificate the CA issued, ready for the certificate store.
 *
 * @param chainPem      the chain as PEM, leaf first, as the CA sent it
 * @param privateKeyPem the leaf's new private key, PEM PKCS#8 ({@code BEGIN PRIVATE KEY}); secret: seal it before
 *                      storing it
 * @param chain         the same chain, parsed (leaf first)
 * @param orderUrl      the ACME order's URL, for the operator's view
 */
public record IssuedCertificate(String chainPem, String privateKeyPem, List<X509Certificate> chain, String orderUrl) {

    public IssuedCertificate {
        chain = List.copyOf(chain);
    }

    /** The leaf certificate. */
    public X509Certificate leaf() {
        return chain.get(0);
    }

    @Override
    public String toString() {
        return "IssuedCertificate[" + leaf().getSubjectX500Principal() + ", order " + orderUrl + "]";
    }
}
