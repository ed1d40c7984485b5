package dev.portico.proxy.route;

import java.util.Map;
import java.util.UUID;

/**
 * What the certificate store hands the snapshot compiler besides the vhosts: every certificate whose key could be
 * opened, the certificates obtained automatically for ACME vhosts, and the live ACME HTTP-01 challenges any replica
 * must answer.
 *
 * @param certificates     by certificate id
 * @param acmeCertificates the certificate id issued for each ACME vhost, by vhost id
 * @param acmeChallenges   key authorizations by token
 */
public record TlsMaterial(Map<String, TlsTable.Entry> certificates, Map<UUID, String> acmeCertificates,
                          Map<String, String> acmeChallenges) {

    /** Nothing stored. */
    public static final TlsMaterial NONE = new TlsMaterial(Map.of(), Map.of(), Map.of());

    public TlsMaterial {
        certificates = Map.copyOf(certificates);
        acmeCertificates = Map.copyOf(acmeCertificates);
        acmeChallenges = Map.copyOf(acmeChallenges);
    }

    /** The certificate presented for {@code vhost}'s names: the one it names, else the one issued for it, or null. */
    TlsTable.Entry certificateOf(dev.portico.vhost.VhostSpec vhost) {
        UUID named = vhost.tls().certificate();
        String id = named != null ? named.toString() : vhost.tls().acme() ? acmeCertificates.get(vhost.id()) : null;
        return id == null ? null : certificates.get(id);
    }
}
