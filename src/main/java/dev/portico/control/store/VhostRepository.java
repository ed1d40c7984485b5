package dev.portico.control.store;

import dev.portico.control.replicas.ConfigChannel;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Vhost rows and the configuration version they are published under. */
@ApplicationScoped
public class VhostRepository implements PanacheRepositoryBase<VhostEntity, UUID> {

    public List<VhostEntity> listByName() {
        return list("order by lower(name)");
    }

    /** What the routing snapshot is built from: one stored row, without its entity. */
    public record StoredDefinition(UUID id, String name, long version, String definition) {
    }

    /**
     * Every vhost's stored definition, in name order, by one query. The entities would cost a query per vhost for
     * their host names (an eager collection the snapshot does not need: the definition has them) and Hibernate's
     * copies for dirty checking; under API churn that read was most of each reload.
     */
    public List<StoredDefinition> definitionsByName() {
        return getEntityManager().createQuery("select new " + StoredDefinition.class.getName()
                + "(v.id, v.name, v.version, v.definition) from VhostEntity v order by lower(v.name)",
                StoredDefinition.class).getResultList();
    }

    public Optional<VhostEntity> findByName(String name) {
        return find("lower(name) = lower(?1)", name).firstResultOptional();
    }

    /** Host names among {@code hostnames} already held by a vhost other than {@code except}, with the holder's name. */
    @SuppressWarnings("unchecked")
    public List<Object[]> hostnameOwners(Collection<String> hostnames, UUID except) {
        if (hostnames.isEmpty()) {
            return List.of();
        }
        return getEntityManager().createNativeQuery("""
                        select h.hostname, v.name from vhost_hostname h join vhost v on v.id = h.vhost_id
                        where h.hostname in (:names) and (cast(:except as uuid) is null or v.id <> cast(:except as uuid))
                        order by h.hostname""")
                .setParameter("names", hostnames)
                .setParameter("except", except == null ? null : except.toString())
                .getResultList();
    }

    /** Bumps the configuration version in the current transaction and tells other replicas at commit. */
    public long bumpConfigVersion() {
        var em = getEntityManager();
        long version = ((Number) em.createNativeQuery(
                "update config_state set version = version + 1, changed_at = now() where id = 1 returning version")
                .getSingleResult()).longValue();
        em.createNativeQuery("select pg_notify(:channel, :payload)")
                .setParameter("channel", ConfigChannel.NAME)
                .setParameter("payload", Long.toString(version))
                .getSingleResult();
        return version;
    }

    public long configVersion() {
        return ((Number) getEntityManager().createNativeQuery("select version from config_state where id = 1")
                .getSingleResult()).longValue();
    }
}
