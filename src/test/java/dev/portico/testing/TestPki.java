package dev.portico.testing;

import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.asn1.x509.AccessDescription;
import org.bouncycastle.asn1.x509.AuthorityInformationAccess;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.StringWriter;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * Certificates made in the test JVM with BouncyCastle (no private key is committed, no subprocess): CAs, leaves
 * with subjectAltNames, and the broken kinds an upload must refuse (expired, not yet valid, weak key).
 */
public final class TestPki {

    private static final SecureRandom RANDOM = new SecureRandom();

    private TestPki() {
    }

    /** A key kind. */
    public enum Kind {
        RSA_2048, RSA_1024, EC_P256, EC_P521
    }

    /** A certificate and its key pair. */
    public record Issued(X509Certificate certificate, KeyPair keys) {

        /** The certificate alone as PEM. */
        public String certificatePem() {
            return pem(certificate);
        }

        /** The private key as PKCS#8 ({@code BEGIN PRIVATE KEY}). */
        public String pkcs8Pem() {
            try {
                return write(new JcaPKCS8Generator(keys.getPrivate(), null));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        /**
         * The private key as PKCS#1 or SEC1 ({@code RSA PRIVATE KEY} / {@code EC PRIVATE KEY}), as openssl 1 and
         * {@code openssl ecparam -genkey} write them: a SEC1 key names its curve inside.
         */
        public String traditionalPem() {
            if (!keys.getPrivate().getAlgorithm().equals("EC")) {
                return write(keys.getPrivate());
            }
            try {
                PrivateKeyInfo info = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
                org.bouncycastle.asn1.sec.ECPrivateKey inner =
                        org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
                int bits = ((java.security.interfaces.ECKey) keys.getPrivate()).getParams().getOrder().bitLength();
                byte[] point = SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()).getPublicKeyData()
                        .getBytes();
                org.bouncycastle.asn1.sec.ECPrivateKey sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(bits,
                        inner.getKey(), new DERBitString(point), info.getPrivateKeyAlgorithm().getParameters());
                return write(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public static KeyPair keys(Kind kind) {
        try {
            KeyPairGenerator generator;
            switch (kind) {
                case RSA_2048, RSA_1024 -> {
                    generator = KeyPairGenerator.getInstance("RSA");
                    generator.initialize(kind == Kind.RSA_2048 ? 2048 : 1024, RANDOM);
                }
                default -> {
                    generator = KeyPairGenerator.getInstance("EC");
                    generator.initialize(new ECGenParameterSpec(kind == Kind.EC_P256 ? "secp256r1" : "secp521r1"),
                            RANDOM);
                }
            }
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A self-signed CA valid from an hour ago for a year. */
    public static Issued ca(String name) {
        KeyPair keys = keys(Kind.EC_P256);
        return sign(name, null, keys, keys, null, true, Instant.now().minus(Duration.ofHours(1)),
                Instant.now().plus(Duration.ofDays(365)), null);
    }

    /** An intermediate CA signed by {@code issuer}. */
    public static Issued intermediate(String name, Issued issuer) {
        return sign(name, issuer.certificate(), keys(Kind.EC_P256), issuer.keys(), null, true,
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(365)), null);
    }

    /** A leaf for {@code names} (the first is also the CN) signed by {@code issuer}, valid from an hour ago for 90 days. */
    public static Issued leaf(Issued issuer, Kind kind, String... names) {
        return leaf(issuer, keys(kind), Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(90)),
                names);
    }

    public static Issued leaf(Issued issuer, KeyPair keys, Instant notBefore, Instant notAfter, String... names) {
        return sign(names[0], issuer.certificate(), keys, issuer.keys(), List.of(names), false, notBefore, notAfter,
                null);
    }

    /** A leaf naming {@code ocspResponder} as its OCSP responder (Authority Information Access), as CAs issue them. */
    public static Issued leafWithOcsp(Issued issuer, String ocspResponder, String... names) {
        return sign(names[0], issuer.certificate(), keys(Kind.EC_P256), issuer.keys(), List.of(names), false,
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(90)), ocspResponder);
    }

    /** PEM of {@code chain}, in the order given. */
    public static String pem(X509Certificate... chain) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (X509Certificate certificate : chain) {
                writer.writeObject(certificate);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    private static String write(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out.toString();
    }

    private static Issued sign(String name, X509Certificate issuer, KeyPair subjectKeys, KeyPair issuerKeys,
                               List<String> dnsNames, boolean ca, Instant notBefore, Instant notAfter,
                               String ocspResponder) {
        try {
            X500Name subject = new X500Name("CN=" + name);
            X500Name issuerName = issuer == null ? subject
                    : X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded());
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuerName,
                    new BigInteger(64, RANDOM), Date.from(notBefore), Date.from(notAfter), subject,
                    subjectKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (dnsNames != null) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(dnsNames.stream()
                        .map(n -> new GeneralName(GeneralName.dNSName, n)).toArray(GeneralName[]::new)));
            }
            if (ocspResponder != null) {
                builder.addExtension(Extension.authorityInfoAccess, false, new AuthorityInformationAccess(
                        AccessDescription.id_ad_ocsp, new GeneralName(GeneralName.uniformResourceIdentifier,
                        ocspResponder)));
            }
            String algorithm = issuerKeys.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKeys.getPrivate())));
            return new Issued(certificate, subjectKeys);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
