package dev.portico.proxy.route;

import dev.portico.http.TrustedProxies;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.headers.SecurityHeadersStage;
import dev.portico.vhost.VhostSpec;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Everything the data plane needs to route a request, compiled from the database in one go and never changed
 * afterwards: a new configuration is a new snapshot, swapped in atomically by {@link SnapshotHolder}. A request
 * reads the current snapshot once and uses it to the end, so in-flight requests finish on the configuration they
 * started with.
 */
public final class RoutingSnapshot {

    private static final Stage[] FALLBACK_STAGES = {SecurityHeadersStage.DEFAULTS};

    private final long version;
    private final Instant builtAt;
    private final List<CompiledVhost> vhosts;
    private final HostNameTable<CompiledVhost> byHostname;
    private final Set<String> poolKeys;
    private final TrustedProxies trustedProxies;
    private final String viaPseudonym;
    private final TlsTable tls;

    RoutingSnapshot(long version, Instant builtAt, List<CompiledVhost> vhosts, HostNameTable<CompiledVhost> byHostname,
                    Set<String> poolKeys, TrustedProxies trustedProxies, String viaPseudonym, TlsTable tls) {
        this.version = version;
        this.builtAt = builtAt;
        this.vhosts = List.copyOf(vhosts);
        this.byHostname = byHostname;
        this.poolKeys = Set.copyOf(poolKeys);
        this.trustedProxies = trustedProxies;
        this.viaPseudonym = viaPseudonym;
        this.tls = tls;
    }

    /** The database configuration version this snapshot was built from (0 before the first load). */
    public long version() {
        return version;
    }

    public Instant builtAt() {
        return builtAt;
    }

    public List<CompiledVhost> vhosts() {
        return vhosts;
    }

    /** The specs of the vhosts in this snapshot: what the control plane may read of them. */
    public List<VhostSpec> specs() {
        return vhosts.stream().map(CompiledVhost::spec).toList();
    }

    /**
     * The vhost serving a normalised host name: an exact name first, then the longest matching {@code *.suffix}
     * wildcard (which, as in nginx, matches any number of labels in front of the suffix but not the suffix itself).
     */
    public CompiledVhost route(String hostname) {
        return byHostname.find(hostname);
    }

    /** Connection pools this snapshot uses; event loops retire the others. */
    public Set<String> poolKeys() {
        return poolKeys;
    }

    public TrustedProxies trustedProxies() {
        return trustedProxies;
    }

    public String viaPseudonym() {
        return viaPseudonym;
    }

    /**
     * The certificates of this configuration, by the names of the vhosts using them (each vhost's {@code tls.certificate}
     * for each of its host names), and every stored certificate by id.
     */
    public TlsTable tls() {
        return tls;
    }

    /**
     * This snapshot, same version, with {@code keys} as its listeners' session ticket keys: they rotate on the clock,
     * not with the configuration. This snapshot itself when it carries them already.
     */
    public RoutingSnapshot withTicketKeys(SessionTicketKeys keys) {
        TlsTable keyed = tls.withTicketKeys(keys);
        return keyed == tls ? this : new RoutingSnapshot(version, builtAt, vhosts, byHostname, poolKeys,
                trustedProxies, viaPseudonym, keyed);
    }

    /** This snapshot, same version, stapling {@code responses}: they are refreshed on the clock, not with the configuration. */
    public RoutingSnapshot withStaples(OcspStaples responses) {
        TlsTable stapled = tls.withStaples(responses);
        return stapled == tls ? this : new RoutingSnapshot(version, builtAt, vhosts, byHostname, poolKeys,
                trustedProxies, viaPseudonym, stapled);
    }

    /** Stages whose response hooks decorate replies made before any vhost was chosen (e.g. an unknown host). */
    public Stage[] fallbackStages() {
        return FALLBACK_STAGES;
    }
}
