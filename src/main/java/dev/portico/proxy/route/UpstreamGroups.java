package dev.portico.proxy.route;

import dev.portico.proxy.core.VhostRuntime;
import dev.portico.proxy.upstream.balance.BalancePolicies;
import dev.portico.proxy.upstream.balance.SlowStart;
import dev.portico.proxy.upstream.balance.UpstreamGroup;
import dev.portico.proxy.upstream.balance.UpstreamHealth;
import dev.portico.proxy.upstream.balance.UpstreamRuntime;
import dev.portico.proxy.upstream.balance.UpstreamSelector;
import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.proxy.upstream.balance.UpstreamTls;
import dev.portico.proxy.upstream.health.CircuitBreaker;
import dev.portico.proxy.upstream.health.HealthChecker;
import dev.portico.proxy.upstream.health.UpstreamStatus;
import dev.portico.proxy.upstream.health.VhostUpstreams;
import dev.portico.proxy.upstream.pool.PoolLimits;
import dev.portico.vhost.BalanceSpec;
import dev.portico.vhost.RouteSpec;
import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.VhostSpec;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Builds the upstream groups of a compile (a vhost's, or a route's own) and keeps what they share across compiles:
 * each origin's passive health, what DNS answered for upstream host names, and the secret sticky-cookie keys come
 * from. Used by the {@link SnapshotCompiler}, one compile at a time.
 */
final class UpstreamGroups {

    private static final Logger LOG = Logger.getLogger(UpstreamGroups.class);

    private final int maxFails;
    private final long failTimeoutNanos;
    private final int eventLoops;
    private final UpstreamHealthService healthService;
    private final Map<String, UpstreamHealth> health = new ConcurrentHashMap<>();
    /** The health keys the compile for publishing in progress binds (only one runs at a time). */
    private Set<String> healthKeysInUse = new HashSet<>();
    /** What DNS answered for upstream host names; each compile expands the names it has. */
    private volatile UpstreamAddresses addresses = UpstreamAddresses.NONE;
    /**
     * What each vhost's sticky-cookie key is derived from: the control plane hands over one derived from the secret
     * key every replica shares ({@link #useStickySecret}), so a cookie issued by one replica is honoured by the others
     * and after a restart; until then, or without a secret key, a random one for this process.
     */
    private volatile byte[] stickySecret = newStickySecret();

    UpstreamGroups(int maxFails, long failTimeoutNanos, int eventLoops, UpstreamHealthService healthService) {
        this.maxFails = maxFails;
        this.failTimeoutNanos = failTimeoutNanos;
        this.eventLoops = eventLoops;
        this.healthService = healthService;
    }

    /** A compile for publishing starts. */
    void begin() {
        healthKeysInUse = new HashSet<>();
        healthService.checkers().begin();
    }

    /** The compile was published: the health of origins no group uses any more is forgotten. */
    void published() {
        health.keySet().retainAll(healthKeysInUse);
    }

    void useStickySecret(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("a sticky-cookie secret has at least 16 bytes");
        }
        stickySecret = secret.clone();
    }

    void useAddresses(UpstreamAddresses resolved) {
        this.addresses = resolved;
    }

    UpstreamHealth healthOf(String origin) {
        return health.get(origin);
    }

    /** @param route the route whose own upstreams these are (their labels name it), or null for the vhost's */
    UpstreamGroup build(VhostSpec spec, RouteSpec route, PoolLimits limits, boolean bind, Set<String> poolKeys,
                        VhostRuntime runtime, Map<String, TlsTable.Entry> certificates, CircuitBreaker breaker) {
        List<UpstreamTarget> targets = new ArrayList<>(spec.upstreams().size());
        UpstreamAddresses resolved = addresses;
        VhostUpstreams states = runtime.claim(VhostUpstreams.KEY, VhostUpstreams.COMPATIBILITY,
                () -> new VhostUpstreams(eventLoops));
        List<VhostUpstreams.Binding> bindings = new ArrayList<>(spec.upstreams().size());
        for (UpstreamSpec upstream : spec.upstreams()) {
            UpstreamTls.ClientCertificate clientCertificate = clientCertificate(upstream, certificates);
            // A host name DNS answered for is one upstream per address; anything else is connected to as written.
            List<InetAddress> hostAddresses = resolved.of(upstream.host());
            List<InetAddress> each = hostAddresses == null ? Collections.singletonList(null) : hostAddresses;
            for (InetAddress address : each) {
                if (targets.size() == UpstreamGroup.MAX_UPSTREAMS) {
                    LOG.warnf("vhost '%s': its upstreams' addresses make more than %d upstreams; the rest are left "
                            + "out", spec.name(), UpstreamGroup.MAX_UPSTREAMS);
                    break;
                }
                String healthKey = UpstreamTarget.healthKey(upstream, address, clientCertificate);
                UpstreamHealth upstreamHealth = bind
                        ? health.computeIfAbsent(healthKey, o -> new UpstreamHealth(maxFails, failTimeoutNanos))
                        : new UpstreamHealth(maxFails, failTimeoutNanos);
                if (bind) {
                    healthKeysInUse.add(healthKey);
                }
                UpstreamTarget target = UpstreamTarget.of(targets.size(), upstream, address,
                        limits.connectTimeoutMillis(), limits.maxPending(), upstreamHealth, clientCertificate);
                if (bind && address == each.get(0)) {
                    target.tls().warnIfUnverified(spec.name(), upstream);
                }
                poolKeys.add(target.poolKey());
                targets.add(target);
                // Each resolved address is an upstream of its own, checked and shown apart.
                String label = (address == null ? upstream.url()
                        : upstream.url() + " [" + address.getHostAddress() + "]")
                        + (route == null ? "" : " (route " + route.name() + ")");
                // A dry run starts no check: its upstreams count as healthy.
                HealthChecker checker = bind && spec.healthCheck() != null
                        ? healthService.checkers().use(target, healthKey, spec.healthCheck(), states.seedOf(label))
                        : null;
                bindings.add(new VhostUpstreams.Binding(label, checker, upstreamHealth, upstream.backup(),
                        upstream.weight()));
            }
        }
        BalanceSpec balance = spec.balance();
        UpstreamSelector<?> selector = BalancePolicies.selector(balance, targets,
                balance.policy() == BalanceSpec.Policy.STICKY ? stickyKey(spec.id()) : null);
        // The loops' cursors and counts carry over while the policy, the upstreams and their weights stay the same.
        UpstreamRuntime cursors = runtime.claim(UpstreamRuntime.KEY, selector.compatibility(),
                () -> new UpstreamRuntime(eventLoops));
        SlowStart slowStart = balance.slowStart().isZero() ? null : new SlowStart(balance.slowStart().toNanos());
        UpstreamStatus[] watches = states.bind(spec.name(), bindings, spec.outlierDetection(), breaker, slowStart);
        return new UpstreamGroup(targets, selector, cursors, watches, slowStart);
    }

    private static byte[] newStickySecret() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return secret;
    }

    /** A vhost's sticky-cookie key: a cookie issued for one vhost is not accepted by another. */
    private byte[] stickyKey(UUID vhost) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(stickySecret, "HmacSHA256"));
            return mac.doFinal(("portico:sticky:" + vhost).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM has no HmacSHA256", e);
        }
    }

    /**
     * The certificate an upstream presents when asked (mutual TLS), or null. One whose key could not be opened is
     * left out: the upstream then refuses the handshake (502 upstream_tls_error) while everything else is served.
     */
    private static UpstreamTls.ClientCertificate clientCertificate(UpstreamSpec upstream,
                                                                   Map<String, TlsTable.Entry> certificates) {
        UUID id = upstream.tlsSettings().clientCertificate();
        TlsTable.Entry entry = id == null ? null : certificates.get(id.toString());
        return entry == null ? null : new UpstreamTls.ClientCertificate(entry.alias(), entry.chain(), entry.privateKey());
    }
}
