package dev.portico.control.api.vhost;

import com.fasterxml.jackson.databind.JsonNode;
import dev.portico.control.api.error.ApiProblem;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.VhostDefinition;
import dev.portico.control.definition.VhostMapper;
import dev.portico.control.definition.VhostValidator;
import dev.portico.control.definition.VhostView;
import dev.portico.control.snapshot.ConfigurationWriteTimings;
import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.control.certificates.CertificateFacts;
import dev.portico.control.store.CertificateEntity;
import dev.portico.control.store.CertificateRepository;
import dev.portico.control.store.VhostEntity;
import dev.portico.control.store.VhostRepository;
import dev.portico.proxy.route.SnapshotCompiler;
import dev.portico.vhost.CompileException;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Vhost changes: validate, check the vhost compiles, commit together with a configuration version bump, then
 * rebuild and publish the routing snapshot before returning. Nothing partial is stored: any failure rolls the
 * transaction back.
 */
@ApplicationScoped
public class VhostService {

    private final VhostRepository repository;
    private final SnapshotCompiler compiler;
    private final SnapshotReloader reloader;
    private final CertificateRepository certificates;
    private final ConfigurationWriteTimings timings;

    public VhostService(VhostRepository repository, SnapshotCompiler compiler, SnapshotReloader reloader,
                        CertificateRepository certificates, ConfigurationWriteTimings timings) {
        this.timings = timings;
        this.repository = repository;
        this.compiler = compiler;
        this.reloader = reloader;
        this.certificates = certificates;
    }

    public List<VhostView> list() {
        return repository.listByName().stream().map(VhostEntity::toView).toList();
    }

    public VhostView get(UUID id) {
        return find(id).toView();
    }

    /** @param input the request body as parsed JSON; it is bound and validated here, every bad field at once */
    public VhostView create(JsonNode input) {
        long started = System.nanoTime();
        VhostDefinition definition = VhostValidator.normalise(input);
        Committed committed = QuarkusTransaction.requiringNew().call(() -> {
            UUID id = UUID.randomUUID();
            checkUnique(definition, id);
            checkCompiles(id, definition);
            checkCertificate(definition);
            VhostEntity entity = new VhostEntity();
            entity.id = id;
            Instant now = now();
            entity.createdAt = now;
            apply(entity, definition, now);
            repository.persist(entity);
            repository.flush();
            return new Committed(entity.toView(), repository.bumpConfigVersion());
        });
        publish(started, committed.configVersion());
        return committed.view();
    }

    /** @param ifMatch the If-Match header, or null; see {@link IfMatch} */
    public VhostView replace(UUID id, JsonNode input, String ifMatch) {
        long started = System.nanoTime();
        VhostDefinition definition = VhostValidator.normalise(input);
        Committed committed = QuarkusTransaction.requiringNew().call(() -> {
            VhostEntity entity = find(id);
            checkVersion(entity, ifMatch);
            checkUnique(definition, id);
            checkCompiles(id, definition);
            checkCertificate(definition);
            apply(entity, definition, now());
            repository.flush();
            return new Committed(entity.toView(), repository.bumpConfigVersion());
        });
        publish(started, committed.configVersion());
        return committed.view();
    }

    public void delete(UUID id, String ifMatch) {
        long started = System.nanoTime();
        long configVersion = QuarkusTransaction.requiringNew().call(() -> {
            VhostEntity entity = find(id);
            checkVersion(entity, ifMatch);
            repository.delete(entity);
            repository.flush();
            return repository.bumpConfigVersion();
        });
        publish(started, configVersion);
    }

    /** Waits until the change committed at {@code configVersion} serves, timing both phases of the write. */
    private void publish(long started, long configVersion) {
        long committed = System.nanoTime();
        timings.since(ConfigurationWriteTimings.Phase.COMMIT, started);
        reloader.reloadAtLeast(configVersion);
        timings.since(ConfigurationWriteTimings.Phase.PUBLISH, committed);
    }

    private VhostEntity find(UUID id) {
        VhostEntity entity = repository.findById(id);
        if (entity == null) {
            throw ApiProblem.notFound("No vhost with id " + id);
        }
        return entity;
    }

    private static void apply(VhostEntity entity, VhostDefinition definition, Instant now) {
        entity.name = definition.name();
        entity.enabled = definition.enabled();
        entity.definition = VhostMapper.toJson(definition);
        entity.hostnames.retainAll(definition.hostnames());
        entity.hostnames.addAll(definition.hostnames());
        entity.updatedAt = now;
    }

    private static Instant now() {
        // PostgreSQL keeps microseconds; truncating here makes the returned view equal to what a GET reads back.
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    private static void checkVersion(VhostEntity entity, String ifMatch) {
        if (!IfMatch.allows(ifMatch, entity.version)) {
            throw ApiProblem.preconditionFailed("The vhost is at version " + entity.version + " (ETag \""
                    + entity.version + "\"), not " + ifMatch.strip() + "; fetch it again and reapply the change");
        }
    }

    private void checkUnique(VhostDefinition definition, UUID self) {
        repository.findByName(definition.name())
                .filter(other -> !other.id.equals(self))
                .ifPresent(other -> {
                    throw ApiProblem.conflict("name", "A vhost named '" + other.name + "' already exists");
                });
        Map<String, String> owners = new HashMap<>();
        for (Object[] row : repository.hostnameOwners(new HashSet<>(definition.hostnames()), self)) {
            owners.put((String) row[0], (String) row[1]);
        }
        // In the order the client listed them, like validation errors.
        List<FieldError> conflicts = new ArrayList<>();
        for (int i = 0; i < definition.hostnames().size(); i++) {
            String hostname = definition.hostnames().get(i);
            String owner = owners.get(hostname);
            if (owner != null) {
                conflicts.add(new FieldError("hostnames[" + i + "]",
                        "'" + hostname + "' is already served by vhost '" + owner + "'"));
            }
        }
        if (!conflicts.isEmpty()) {
            String detail = conflicts.size() == 1 ? conflicts.get(0).reason()
                    : conflicts.size() + " host names are already served by other vhosts";
            throw new ApiProblem(409, "conflict", "Conflict", detail, conflicts);
        }
    }

    private void checkCompiles(UUID id, VhostDefinition definition) {
        try {
            compiler.check(List.of(VhostMapper.toSpec(id, 0, definition)));
        } catch (CompileException e) {
            throw ApiProblem.invalid(e.field(), e.reason());
        }
    }

    /**
     * The certificate a vhost names must exist and cover every host name, or clients would be shown a certificate
     * they refuse. Its row is read for share: a concurrent deletion waits until this change commits, then sees it.
     */
    private void checkCertificate(VhostDefinition definition) {
        checkClientCertificates(definition);
        if (definition.tls() == null || definition.tls().certificate() == null) {
            return;
        }
        CertificateEntity certificate = certificates.findById(UUID.fromString(definition.tls().certificate()),
                LockModeType.PESSIMISTIC_READ);
        if (certificate == null) {
            throw ApiProblem.invalid("tls.certificate", "names no stored certificate (see GET /api/v1/certificates)");
        }
        List<String> uncovered = definition.hostnames().stream()
                .filter(hostname -> !CertificateFacts.covers(certificate.names(), hostname)).toList();
        if (!uncovered.isEmpty()) {
            throw ApiProblem.invalid("tls.certificate", "does not cover " + uncovered + ": it is valid for "
                    + certificate.names());
        }
    }

    /** The certificates upstreams present (mutual TLS) must be stored; read for share, as above. */
    private void checkClientCertificates(VhostDefinition definition) {
        List<FieldError> missing = new ArrayList<>();
        for (int i = 0; i < definition.upstreams().size(); i++) {
            var tls = definition.upstreams().get(i).tls();
            if (tls != null && tls.clientCertificate() != null && certificates.findById(
                    UUID.fromString(tls.clientCertificate()), LockModeType.PESSIMISTIC_READ) == null) {
                missing.add(new FieldError("upstreams[" + i + "].tls.clientCertificate",
                        "names no stored certificate (see GET /api/v1/certificates)"));
            }
        }
        if (!missing.isEmpty()) {
            throw ApiProblem.invalid(missing);
        }
    }

    private record Committed(VhostView view, long configVersion) {
    }
}
