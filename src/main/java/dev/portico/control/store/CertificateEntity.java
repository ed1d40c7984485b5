package dev.portico.control.store;

import dev.portico.control.secrets.SecretBox;
import dev.portico.proxy.route.TlsTable;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.vertx.core.json.JsonArray;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * A certificate row: the public chain as PEM, the private key sealed ({@link SecretBox}, bound to the row's id) as
 * PKCS#8, and the leaf's facts copied out for listing.
 */
@Entity
@Table(name = "certificate")
public class CertificateEntity extends PanacheEntityBase {

    @Id
    public UUID id;

    /** The names as a JSON array of strings; see {@link #names()}. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "names", nullable = false, columnDefinition = "jsonb")
    public String namesJson;

    @Column(nullable = false)
    public String subject;

    @Column(nullable = false)
    public String issuer;

    @Column(name = "not_before", nullable = false)
    public Instant notBefore;

    @Column(name = "not_after", nullable = false)
    public Instant notAfter;

    @Column(name = "sha256_fingerprint", nullable = false, length = 64)
    public String sha256Fingerprint;

    @Column(name = "key_type", nullable = false, length = 16)
    public String keyType;

    /** {@code uploaded} or {@code acme}. */
    @Column(nullable = false, length = 16)
    public String source;

    @Column(name = "chain_pem", nullable = false)
    public String chainPem;

    @Column(name = "key_ciphertext", nullable = false)
    public byte[] keyCiphertext;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The DNS names the certificate is valid for. */
    public List<String> names() {
        return new JsonArray(namesJson).stream().map(String.class::cast).toList();
    }

    public void names(List<String> names) {
        namesJson = new JsonArray(List.copyOf(names)).encode();
    }

    /** What the sealed key of the certificate with {@code id} is bound to: it opens for no other row. */
    public static String sealingContext(UUID id) {
        return "portico:certificate:" + id;
    }

    /**
     * The chain and the opened key, as the TLS listener takes them. The alias carries the fingerprint: a renewed
     * certificate under the same id is a new alias, which the engines' key caches require.
     *
     * @throws dev.portico.control.secrets.SecretUnreadableException when {@code box} cannot open the key
     */
    public TlsTable.Entry toEntry(SecretBox box) {
        byte[] pkcs8 = box.open(keyCiphertext, sealingContext(id));
        try {
            PrivateKey key = KeyFactory.getInstance(keyType.startsWith("EC") ? "EC" : "RSA")
                    .generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
            return new TlsTable.Entry(id + ":" + sha256Fingerprint.substring(0, 16), chain(), key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The stored key of certificate " + id + " is not a " + keyType + " key", e);
        } finally {
            Arrays.fill(pkcs8, (byte) 0);
        }
    }

    private X509Certificate[] chain() throws GeneralSecurityException {
        var certificates = CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(chainPem.getBytes(StandardCharsets.US_ASCII)));
        return certificates.stream().map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
    }
}
