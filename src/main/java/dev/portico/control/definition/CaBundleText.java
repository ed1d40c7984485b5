package dev.portico.control.definition;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks an upstream's {@code tls.caBundle}: PEM {@code CERTIFICATE} blocks, each one X.509 certificate, read the way
 * Vert.x's {@code PemTrustOptions} will read them (text between blocks, like openssl's human-readable dump, is
 * ignored). Anything else in a block, a private key pasted by mistake above all, is refused rather than skipped.
 */
final class CaBundleText {

    /** Far above any real bundle (the whole Mozilla root store is about 220 KiB). */
    static final int MAX_LENGTH = 512 * 1024;

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END ([A-Z0-9 ]+)-----");
    private static final Pattern BEGIN = Pattern.compile("-----BEGIN ");

    private CaBundleText() {
    }

    /**
     * @return the number of certificates in {@code pem}, at least one
     * @throws IllegalArgumentException with a reason fit for an API error
     */
    static int check(String pem) {
        if (pem.isBlank()) {
            throw new IllegalArgumentException("must be PEM text of at least one CA certificate");
        }
        if (pem.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("must be at most " + MAX_LENGTH / 1024 + " KiB");
        }
        CertificateFactory x509;
        try {
            x509 = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("the JVM has no X.509 certificate factory", e);
        }
        Matcher block = BLOCK.matcher(pem);
        int certificates = 0;
        int blocks = 0;
        while (block.find()) {
            blocks++;
            String label = block.group(1);
            if (!label.equals(block.group(3))) {
                throw new IllegalArgumentException("PEM block " + blocks + " begins as " + label + " but ends as "
                        + block.group(3));
            }
            if (!label.equals("CERTIFICATE")) {
                throw new IllegalArgumentException("PEM block " + blocks + " is a " + label
                        + ", not a CERTIFICATE: a CA bundle holds certificates only");
            }
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(block.group(2).strip().getBytes(StandardCharsets.US_ASCII));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("PEM block " + blocks + " is not valid base64");
            }
            try {
                x509.generateCertificate(new ByteArrayInputStream(der));
            } catch (CertificateException e) {
                throw new IllegalArgumentException("PEM block " + blocks + " is not an X.509 certificate");
            }
            certificates++;
        }
        // A BEGIN line no block matched: a truncated paste, or an END line missing.
        long begins = BEGIN.matcher(pem).results().count();
        if (begins != blocks) {
            throw new IllegalArgumentException("has a PEM block without its matching -----END ...----- line");
        }
        if (certificates == 0) {
            throw new IllegalArgumentException("has no -----BEGIN CERTIFICATE----- block");
        }
        return certificates;
    }
}
