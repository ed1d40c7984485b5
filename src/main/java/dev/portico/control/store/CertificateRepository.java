package dev.portico.control.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Certificate rows, and which vhosts name them. */
@ApplicationScoped
public class CertificateRepository implements PanacheRepositoryBase<CertificateEntity, UUID> {

    public List<CertificateEntity> listByExpiry() {
        return list("order by notAfter, id");
    }

    /**
     * Vhost (id, name) pairs by the certificate id they name: as their own {@code tls.certificate}, or as an
     * upstream's {@code tls.clientCertificate}.
     */
    @SuppressWarnings("unchecked")
    public Map<UUID, List<Object[]>> usersByCertificate() {
        List<Object[]> rows = getEntityManager().createNativeQuery("""
                        select refs.certificate, cast(v.id as text), v.name from vhost v, lateral (
                            select v.definition -> 'tls' ->> 'certificate' as certificate
                            union
                            select u -> 'tls' ->> 'clientCertificate'
                            from jsonb_array_elements(coalesce(v.definition -> 'upstreams', '[]'::jsonb)) u) refs
                        where refs.certificate is not null order by lower(v.name)""")
                .getResultList();
        Map<UUID, List<Object[]>> users = new HashMap<>();
        for (Object[] row : rows) {
            users.computeIfAbsent(UUID.fromString((String) row[0]), k -> new java.util.ArrayList<>())
                    .add(new Object[]{UUID.fromString((String) row[1]), row[2]});
        }
        return users;
    }
}
