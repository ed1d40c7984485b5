package dev.portico.control.store;

import dev.portico.control.definition.VhostMapper;
import dev.portico.control.secrets.SecretBox;
import dev.portico.control.secrets.SecretKeySource;
import dev.portico.control.secrets.SecretUnreadableException;
import dev.portico.control.snapshot.VhostSource;
import dev.portico.proxy.route.TlsMaterial;
import dev.portico.proxy.route.TlsTable;
import dev.portico.vhost.CompileException;
import dev.portico.vhost.VhostSpec;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Reads the routing configuration and the certificates out of PostgreSQL for the snapshot reloader. */
@ApplicationScoped
public class StoredVhostSource implements VhostSource {

    private final VhostRepository repository;
    private final CertificateRepository certificates;
    private final SecretKeySource secrets;
    private final AcmeSnapshotSource acme;
    /**
     * Keys already opened, by id and fingerprint: a reload after a vhost change does not decrypt every key again.
     * Replaced whole on every load, so deleted or renewed certificates leave it.
     */
    private volatile Map<String, TlsTable.Entry> opened = Map.of();

    public StoredVhostSource(VhostRepository repository, CertificateRepository certificates, SecretKeySource secrets,
                             AcmeSnapshotSource acme) {
        this.acme = acme;
        this.repository = repository;
        this.certificates = certificates;
        this.secrets = secrets;
    }

    @Override
    public Loaded load() {
        return QuarkusTransaction.requiringNew().call(() -> {
            // Version first: rows read afterwards are at least that new, so a snapshot never claims a version
            // whose changes it lacks (at worst it has newer rows, and the next notification reloads again).
            long version = repository.configVersion();
            List<VhostSpec> specs = repository.definitionsByName().stream().map(StoredVhostSource::toSpec)
                    .toList();
            List<String> problems = new ArrayList<>();
            Map<String, TlsTable.Entry> entries = openCertificates(problems);
            TlsMaterial tls = new TlsMaterial(entries, acmeCertificates(), acme.liveChallenges());
            return new Loaded(version, specs, tls, problems.isEmpty() ? null : String.join("; ", problems));
        });
    }

    private Map<String, TlsTable.Entry> openCertificates(List<String> problems) {
        List<CertificateEntity> rows = certificates.listAll();
        Optional<SecretBox> box = secrets.box();
        if (rows.isEmpty()) {
            opened = Map.of();
            return Map.of();
        }
        if (box.isEmpty()) {
            problems.add(rows.size() + " stored certificates are not served: " + secrets.unavailableReason());
            return Map.of();
        }
        Map<String, TlsTable.Entry> before = opened;
        Map<String, TlsTable.Entry> now = new HashMap<>();
        Map<String, TlsTable.Entry> byId = new HashMap<>();
        for (CertificateEntity row : rows) {
            String key = row.id + ":" + row.sha256Fingerprint;
            TlsTable.Entry entry = before.get(key);
            if (entry == null) {
                try {
                    entry = row.toEntry(box.get());
                } catch (SecretUnreadableException | IllegalStateException e) {
                    problems.add("certificate " + row.id + " is not served: " + e.getMessage());
                    continue;
                }
            }
            now.put(key, entry);
            byId.put(row.id.toString(), entry);
        }
        opened = Map.copyOf(now);
        return byId;
    }

    /** The certificate issued for each ACME vhost, by vhost id. */
    @SuppressWarnings("unchecked")
    private Map<UUID, String> acmeCertificates() {
        List<Object[]> rows = repository.getEntityManager().createNativeQuery(
                "select cast(vhost_id as text), cast(certificate_id as text) from acme_certificate_state "
                        + "where certificate_id is not null").getResultList();
        Map<UUID, String> issued = new HashMap<>();
        for (Object[] row : rows) {
            issued.put(UUID.fromString((String) row[0]), (String) row[1]);
        }
        return issued;
    }

    /** A row the API would never have written (edited by hand, or by another Portico version) fails the build. */
    private static VhostSpec toSpec(VhostRepository.StoredDefinition row) {
        try {
            return VhostMapper.toSpec(row.id(), row.version(), row.definition());
        } catch (RuntimeException e) {
            throw new CompileException(row.name(), "definition", "stored definition is not valid: " + e.getMessage());
        }
    }

    @Override
    public long currentVersion() {
        return QuarkusTransaction.requiringNew().call(repository::configVersion);
    }
}
