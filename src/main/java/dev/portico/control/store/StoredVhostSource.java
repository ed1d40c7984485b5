package dev.portico.control.store;

import dev.portico.control.snapshot.VhostSource;
import dev.portico.vhost.CompileException;
import dev.portico.vhost.VhostSpec;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** Reads the routing configuration out of PostgreSQL for the snapshot reloader. */
@ApplicationScoped
public class StoredVhostSource implements VhostSource {

    private final VhostRepository repository;

    public StoredVhostSource(VhostRepository repository) {
        this.repository = repository;
    }

    @Override
    public Loaded load() {
        return QuarkusTransaction.requiringNew().call(() -> {
            // Version first: rows read afterwards are at least that new, so a snapshot never claims a version
            // whose changes it lacks (at worst it has newer rows, and the next notification reloads again).
            long version = repository.configVersion();
            List<VhostSpec> specs = repository.listByName().stream().map(StoredVhostSource::toSpec).toList();
            return new Loaded(version, specs);
        });
    }

    /** A row the API would never have written (edited by hand, or by another Portico version) fails the build. */
    private static VhostSpec toSpec(VhostEntity entity) {
        try {
            return entity.toSpec();
        } catch (RuntimeException e) {
            throw new CompileException(entity.name, "definition", "stored definition is not valid: " + e.getMessage());
        }
    }

    @Override
    public long currentVersion() {
        return QuarkusTransaction.requiringNew().call(repository::configVersion);
    }
}
