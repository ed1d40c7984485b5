package dev.portico.control.api.certificate;

import dev.portico.control.store.CertificateEntity;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A stored certificate as the API shows it: what it is and who uses it, never its key. */
@Schema(name = "Certificate")
public record CertificateView(
        UUID id,
        @Schema(description = "DNS names it is valid for (subjectAltName; the subject's CN when there is none)")
        List<String> names,
        @Schema(description = "Subject of the leaf, RFC 2253") String subject,
        @Schema(description = "Issuer of the leaf, RFC 2253") String issuer,
        Instant notBefore,
        Instant notAfter,
        @Schema(description = "Whole days left until notAfter; negative once expired") long expiresInDays,
        @Schema(description = "SHA-256 of the leaf's DER encoding, hex") String sha256Fingerprint,
        @Schema(description = "RSA-2048, EC-P256 and the like") String keyType,
        @Schema(description = "uploaded, or acme for certificates Portico obtained itself") String source,
        @Schema(description = "The vhosts whose tls.certificate names it") List<VhostReference> usedBy,
        Instant createdAt) {

    /** A vhost using a certificate. */
    @Schema(name = "CertificateUser")
    public record VhostReference(UUID id, String name) {
    }

    static CertificateView of(CertificateEntity row, List<VhostReference> usedBy, Instant now) {
        return new CertificateView(row.id, row.names(), row.subject, row.issuer, row.notBefore, row.notAfter,
                Duration.between(now, row.notAfter).toDays(), row.sha256Fingerprint, row.keyType, row.source,
                List.copyOf(usedBy), row.createdAt);
    }
}
