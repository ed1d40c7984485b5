package dev.portico.control.acme;

import dev.portico.control.api.error.FieldError;
import dev.portico.control.certificates.ValidCertificate;
import dev.portico.control.secrets.SecretKeySource;
import dev.portico.control.store.CertificateEntity;
import jakarta.inject.Singleton;
import io.vertx.core.json.JsonArray;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Stores what a CA issued in the certificate store (source {@code acme}), checked like an upload and with its key
 * sealed like one, in one fenced insert: a renewer that lost its lease stores nothing. Worker threads only.
 */
@Singleton
public class IssuedCertificateStore {

    private final DataSource dataSource;
    private final SecretKeySource secrets;

    public IssuedCertificateStore(DataSource dataSource, SecretKeySource secrets) {
        this.dataSource = dataSource;
        this.secrets = secrets;
    }

    /**
     * @return the new certificate's id, or null when {@code claim} no longer holds the lease
     * @throws IllegalStateException when the issued certificate fails the upload checks (a CA bug) or there is no
     *                               secret key to seal its key with
     */
    public UUID store(IssuedCertificate issued, LeaseClaim claim) {
        List<FieldError> errors = new ArrayList<>();
        ValidCertificate valid = ValidCertificate.check(issued.chainPem(), issued.privateKeyPem(), errors);
        if (valid == null) {
            throw new IllegalStateException("the issued certificate is not usable: " + errors);
        }
        UUID id = UUID.randomUUID();
        byte[] pkcs8 = valid.bundle().privateKey().getEncoded();
        byte[] sealed;
        try {
            sealed = secrets.require().seal(pkcs8, CertificateEntity.sealingContext(id));
        } finally {
            Arrays.fill(pkcs8, (byte) 0);
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("insert into certificate (id, names, subject, "
                     + "issuer, not_before, not_after, sha256_fingerprint, key_type, source, chain_pem, key_ciphertext, "
                     + "created_at) select ?, cast(? as jsonb), ?, ?, ?, ?, ?, ?, 'acme', ?, ?, now() where "
                     + LeaseClaim.FENCE)) {
            var facts = valid.facts();
            insert.setObject(1, id);
            insert.setString(2, new JsonArray(facts.names()).encode());
            insert.setString(3, facts.subject());
            insert.setString(4, facts.issuer());
            insert.setTimestamp(5, Timestamp.from(facts.notBefore()));
            insert.setTimestamp(6, Timestamp.from(facts.notAfter()));
            insert.setString(7, facts.sha256Fingerprint());
            insert.setString(8, facts.keyType());
            insert.setString(9, valid.bundle().chainPem());
            insert.setBytes(10, sealed);
            claim.bindFence(insert, 11);
            return insert.executeUpdate() == 1 ? id : null;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot store the issued certificate: " + e.getMessage(), e);
        }
    }

    /** Deletes a certificate ACME issued earlier, unless a vhost or upstream names it explicitly. */
    public void retire(UUID id) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement delete = connection.prepareStatement("""
                     delete from certificate c where c.id = ? and c.source = 'acme'
                     and not exists (select 1 from acme_certificate_state s where s.certificate_id = c.id)
                     and not exists (select 1 from vhost v where v.definition -> 'tls' ->> 'certificate' = cast(c.id as text))
                     """)) {
            delete.setObject(1, id);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot delete the replaced certificate " + id + ": " + e.getMessage(), e);
        }
    }

    /** When a certificate was issued, for the renewal time. */
    static Instant notBefore(IssuedCertificate issued) {
        return issued.leaf().getNotBefore().toInstant();
    }
}
