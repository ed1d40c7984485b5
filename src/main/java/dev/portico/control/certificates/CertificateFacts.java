package dev.portico.control.certificates;

import javax.security.auth.x500.X500Principal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECKey;
import java.security.interfaces.RSAKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * What the API shows of a certificate, read from its leaf: never anything of the key but its type.
 *
 * @param names             the DNS names it is valid for (subjectAltName; the subject's CN only when there is no
 *                          subjectAltName, as old clients read it), lower case
 * @param sha256Fingerprint SHA-256 of the leaf's DER, lower-case hex, as {@code openssl x509 -fingerprint -sha256}
 *                          shows it without the colons
 * @param keyType           {@code RSA-2048}, {@code EC-P256} and the like
 */
public record CertificateFacts(List<String> names, String subject, String issuer, Instant notBefore,
                               Instant notAfter, String sha256Fingerprint, String keyType) {

    private static final int DNS_NAME = 2;

    public CertificateFacts {
        names = List.copyOf(names);
    }

    static CertificateFacts of(X509Certificate leaf, PrivateKey key) {
        return new CertificateFacts(names(leaf), leaf.getSubjectX500Principal().getName(X500Principal.RFC2253),
                leaf.getIssuerX500Principal().getName(X500Principal.RFC2253), leaf.getNotBefore().toInstant(),
                leaf.getNotAfter().toInstant(), fingerprint(leaf), keyType(key));
    }

    /** The DNS subjectAltNames, else the subject's common name, else none. */
    static List<String> names(X509Certificate leaf) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = leaf.getSubjectAlternativeNames();
            if (alternatives != null) {
                for (List<?> alternative : alternatives) {
                    if (((Integer) alternative.get(0)) == DNS_NAME) {
                        names.add(((String) alternative.get(1)).toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return names;
        }
        if (names.isEmpty()) {
            for (String part : leaf.getSubjectX500Principal().getName(X500Principal.RFC2253).split(",")) {
                if (part.regionMatches(true, 0, "CN=", 0, 3)) {
                    names.add(part.substring(3).toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }

    static String fingerprint(X509Certificate certificate) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("A parsed certificate has a SHA-256 of its encoding", e);
        }
    }

    static String keyType(PrivateKey key) {
        if (key instanceof RSAKey) {
            return "RSA-" + ((RSAKey) key).getModulus().bitLength();
        }
        if (key instanceof ECKey) {
            return "EC-P" + ((ECKey) key).getParams().getCurve().getField().getFieldSize();
        }
        return key.getAlgorithm();
    }

    /**
     * Whether this certificate is valid for {@code hostname} as a client checks it (RFC 6125): an exact name, or a
     * {@code *.suffix} name standing for exactly one label. A vhost's own wildcard {@code *.suffix} is covered by the
     * same wildcard (names deeper than one label are not, as clients will say).
     */
    public boolean covers(String hostname) {
        return covers(names, hostname);
    }

    /** {@link #covers(String)} for a certificate valid for {@code names}. */
    public static boolean covers(List<String> names, String hostname) {
        String host = hostname.toLowerCase(Locale.ROOT);
        for (String name : names) {
            if (name.equals(host)) {
                return true;
            }
            if (name.startsWith("*.") && !host.startsWith("*.")) {
                int dot = host.indexOf('.');
                if (dot > 0 && host.substring(dot).equals(name.substring(1))) {
                    return true;
                }
            }
        }
        return false;
    }
}
