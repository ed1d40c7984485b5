package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates made by the openssl command at test time (no private key is committed): each names one
 * host in its subject and its subjectAltName, so a test tells which certificate a handshake presented.
 */
final class TestCertificates {

    private TestCertificates() {
    }

    /** A certificate for {@code name} (a host or {@code *.suffix}) with an ECDSA P-256 key. */
    static TlsTable.Entry ecdsa(String name) throws Exception {
        return make(name, "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1");
    }

    /** A certificate for {@code name} with an RSA 2048 key. */
    static TlsTable.Entry rsa(String name) throws Exception {
        return make(name, "rsa:2048");
    }

    /** The name in the subject of a presented certificate ({@code CN=a.test}). */
    static String subject(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName();
    }

    private static TlsTable.Entry make(String name, String keySpec, String... keyOptions) throws Exception {
        Path dir = Files.createTempDirectory("portico-tls-test");
        Path key = dir.resolve("key.pem");
        Path certificate = dir.resolve("certificate.pem");
        try {
            String[] head = {"openssl", "req", "-x509", "-newkey", keySpec};
            String[] tail = {"-nodes", "-keyout", key.toString(), "-out", certificate.toString(), "-days", "2",
                    "-subj", "/CN=" + name, "-addext", "subjectAltName=DNS:" + name};
            String[] command = new String[head.length + keyOptions.length + tail.length];
            System.arraycopy(head, 0, command, 0, head.length);
            System.arraycopy(keyOptions, 0, command, head.length, keyOptions.length);
            System.arraycopy(tail, 0, command, head.length + keyOptions.length, tail.length);
            run(command);
            X509Certificate[] chain = chain(certificate);
            return new TlsTable.Entry(name + ":" + chain[0].getSerialNumber().toString(16), chain,
                    privateKey(key, chain[0].getPublicKey().getAlgorithm()));
        } finally {
            Files.deleteIfExists(key);
            Files.deleteIfExists(certificate);
            Files.deleteIfExists(dir);
        }
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + output);
        }
    }

    private static X509Certificate[] chain(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509").generateCertificates(in).toArray(new X509Certificate[0]);
        }
    }

    /** openssl 3 writes unencrypted keys as PKCS#8 ({@code BEGIN PRIVATE KEY}). */
    private static PrivateKey privateKey(Path pem, String algorithm) throws IOException, GeneralSecurityException {
        String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(
                Base64.getDecoder().decode(base64)));
    }
}
