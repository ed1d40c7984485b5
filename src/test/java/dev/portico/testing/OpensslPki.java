package dev.portico.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority made by the openssl command at test time (no private key is committed), and
 * the server and client certificates it issues. ECDSA P-256 throughout: quick to make.
 */
public final class OpensslPki {

    /** A certificate and its key, as PEM text and parsed. */
    public record Issued(String certificatePem, String keyPem) {

        public X509Certificate[] chain() {
            try {
                return CertificateFactory.getInstance("X.509")
                        .generateCertificates(new ByteArrayInputStream(certificatePem.getBytes(StandardCharsets.US_ASCII)))
                        .toArray(new X509Certificate[0]);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        /** openssl 3 writes unencrypted keys as PKCS#8 ({@code BEGIN PRIVATE KEY}). */
        public PrivateKey privateKey() {
            String base64 = keyPem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            try {
                return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(
                        Base64.getDecoder().decode(base64)));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final String name;
    private final Issued ca;

    private OpensslPki(String name, Issued ca) {
        this.name = name;
        this.ca = ca;
    }

    /** A new self-signed CA named {@code name}. */
    public static OpensslPki authority(String name) {
        Issued ca = openssl(dir -> List.of("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString(),
                "-days", "2", "-subj", "/CN=" + name,
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign"));
        return new OpensslPki(name, ca);
    }

    /** The CA certificate as PEM: what {@code tls.caBundle} takes. */
    public String caPem() {
        return ca.certificatePem();
    }

    /**
     * A server certificate for {@code subjectAltNames} ({@code DNS:origin.test}, {@code IP:127.0.0.1}, comma
     * separated), issued by this CA.
     */
    public Issued server(String subjectAltNames) {
        return issue("server", subjectAltNames, "serverAuth");
    }

    /** A client certificate for {@code commonName}, issued by this CA. */
    public Issued client(String commonName) {
        return issue(commonName, "DNS:" + commonName, "clientAuth");
    }

    private Issued issue(String commonName, String subjectAltNames, String extendedKeyUsage) {
        return openssl(dir -> {
            try {
                Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
                Files.writeString(dir.resolve("ca.key"), ca.keyPem());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            List<String> args = new ArrayList<>(List.of("req", "-x509", "-newkey", "ec",
                    "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-CA", dir.resolve("ca.pem").toString(), "-CAkey", dir.resolve("ca.key").toString(),
                    "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString(),
                    "-days", "2", "-subj", "/CN=" + commonName + "/O=" + name,
                    "-addext", "subjectAltName=" + subjectAltNames,
                    "-addext", "basicConstraints=critical,CA:FALSE",
                    "-addext", "extendedKeyUsage=" + extendedKeyUsage));
            return args;
        });
    }

    private interface Command {
        List<String> args(Path dir);
    }

    /** Runs openssl in a fresh directory and reads back {@code cert.pem} and {@code key.pem}. */
    private static Issued openssl(Command command) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("portico-pki");
            List<String> line = new ArrayList<>();
            line.add("openssl");
            line.addAll(command.args(dir));
            Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException(String.join(" ", line) + " failed: " + output);
            }
            return new Issued(Files.readString(dir.resolve("cert.pem")), Files.readString(dir.resolve("key.pem")));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (dir != null) {
                try (var files = Files.list(dir)) {
                    for (Path file : files.toList()) {
                        Files.deleteIfExists(file);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // A temporary directory left behind harms nothing.
                }
            }
        }
    }
}
