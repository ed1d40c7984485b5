package dev.portico.control.api.certificate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.api.json.JsonRecordReader;
import dev.portico.control.certificates.ValidCertificate;
import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretKeySource;
import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.control.store.CertificateEntity;
import dev.portico.control.store.CertificateRepository;
import dev.portico.control.store.VhostRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Certificates: check an upload, seal its key and store it with a configuration version bump (the snapshot that
 * follows serves it wherever a vhost names it); list them with who uses them; delete one nobody uses.
 */
@ApplicationScoped
public class CertificateService {

    private final CertificateRepository repository;
    private final VhostRepository vhosts;
    private final SecretKeySource secrets;
    private final SnapshotReloader reloader;

    public CertificateService(CertificateRepository repository, VhostRepository vhosts, SecretKeySource secrets,
                              SnapshotReloader reloader) {
        this.repository = repository;
        this.vhosts = vhosts;
        this.secrets = secrets;
        this.reloader = reloader;
    }

    public List<CertificateView> list() {
        return QuarkusTransaction.requiringNew().call(() -> {
            Map<UUID, List<Object[]>> users = repository.usersByCertificate();
            Instant now = Instant.now();
            return repository.listByExpiry().stream()
                    .map(row -> CertificateView.of(row, references(users.get(row.id)), now)).toList();
        });
    }

    public CertificateView get(UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> view(find(id)));
    }

    /** @param body the request body as parsed JSON: {@code certificate} and {@code privateKey}, both PEM */
    public CertificateView create(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiProblem.invalid("body", "must be a JSON object with certificate and privateKey");
        }
        JsonRecordReader.Result<CertificateUpload> read = JsonRecordReader.read(body, CertificateUpload.class);
        List<FieldError> errors = new ArrayList<>(read.errors());
        ValidCertificate valid = null;
        if (errors.isEmpty()) {
            valid = ValidCertificate.check(read.value().certificate(), read.value().privateKey(), errors);
        }
        if (!errors.isEmpty()) {
            throw ApiProblem.invalid(errors);
        }
        SecretBox box = secrets.box().orElseThrow(() -> new ApiProblem(503, "secret-key-unavailable",
                "Service unavailable", secrets.unavailableReason()));
        ValidCertificate certificate = valid;
        Committed committed = QuarkusTransaction.requiringNew().call(() -> {
            CertificateEntity row = newRow(certificate, box);
            repository.persist(row);
            repository.flush();
            return new Committed(CertificateView.of(row, List.of(), Instant.now()), vhosts.bumpConfigVersion());
        });
        reloader.reloadAtLeast(committed.configVersion());
        return committed.view();
    }

    /** Deletes a certificate no vhost names; 409 naming the vhosts otherwise. */
    public void delete(UUID id) {
        long configVersion = QuarkusTransaction.requiringNew().call(() -> {
            // Locked: a vhost change naming it waits for this transaction (it takes the row for share).
            CertificateEntity row = repository.findById(id, LockModeType.PESSIMISTIC_WRITE);
            if (row == null) {
                throw ApiProblem.notFound("No certificate with id " + id);
            }
            List<CertificateView.VhostReference> users = references(repository.usersByCertificate().get(id));
            if (!users.isEmpty()) {
                throw ApiProblem.conflict("id", "The certificate is used by vhost(s) "
                        + users.stream().map(CertificateView.VhostReference::name).toList()
                        + ": point their tls.certificate elsewhere first");
            }
            repository.delete(row);
            repository.flush();
            return vhosts.bumpConfigVersion();
        });
        reloader.reloadAtLeast(configVersion);
    }

    private CertificateEntity find(UUID id) {
        CertificateEntity row = repository.findById(id);
        if (row == null) {
            throw ApiProblem.notFound("No certificate with id " + id);
        }
        return row;
    }

    private CertificateView view(CertificateEntity row) {
        return CertificateView.of(row, references(repository.usersByCertificate().get(row.id)), Instant.now());
    }

    private static CertificateEntity newRow(ValidCertificate certificate, SecretBox box) {
        CertificateEntity row = new CertificateEntity();
        row.id = UUID.randomUUID();
        row.names(certificate.facts().names());
        row.subject = certificate.facts().subject();
        row.issuer = certificate.facts().issuer();
        row.notBefore = certificate.facts().notBefore();
        row.notAfter = certificate.facts().notAfter();
        row.sha256Fingerprint = certificate.facts().sha256Fingerprint();
        row.keyType = certificate.facts().keyType();
        row.source = "uploaded";
        row.chainPem = certificate.bundle().chainPem();
        byte[] pkcs8 = certificate.bundle().privateKey().getEncoded();
        try {
            row.keyCiphertext = box.seal(pkcs8, CertificateEntity.sealingContext(row.id));
        } finally {
            Arrays.fill(pkcs8, (byte) 0);
        }
        // PostgreSQL keeps microseconds; truncating here makes the returned view equal to what a GET reads back.
        row.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return row;
    }

    private static List<CertificateView.VhostReference> references(List<Object[]> rows) {
        if (rows == null) {
            return List.of();
        }
        return rows.stream().map(r -> new CertificateView.VhostReference((UUID) r[0], (String) r[1])).toList();
    }

    private record Committed(CertificateView view, long configVersion) {
    }
}
