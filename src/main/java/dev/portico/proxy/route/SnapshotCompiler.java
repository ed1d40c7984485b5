package dev.portico.proxy.route;

import dev.portico.cache.CacheRegistry;
import dev.portico.cache.ResponseStore;
import dev.portico.http.TrustedProxies;
import dev.portico.http.coding.CompressionPolicy;
import dev.portico.proxy.core.CompiledVhost;
import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.core.VhostRuntime;
import dev.portico.proxy.headers.HeaderRulesStage;
import dev.portico.proxy.routes.RouteTable;
import dev.portico.proxy.upstream.ForwardStage;
import dev.portico.proxy.upstream.pool.PoolLimits;
import dev.portico.proxy.upstream.UpstreamSettings;
import dev.portico.proxy.upstream.balance.UpstreamGroup;
import dev.portico.proxy.upstream.balance.UpstreamHealth;
import dev.portico.proxy.upstream.breaker.CircuitBreakerStage;
import dev.portico.proxy.upstream.health.CircuitBreaker;
import dev.portico.proxy.upstream.health.VhostUpstreams;
import dev.portico.proxy.upstream.retry.RetryBudget;
import dev.portico.proxy.upstream.retry.RetryPolicy;
import dev.portico.vhost.CompileException;
import dev.portico.vhost.RetrySpec;
import dev.portico.vhost.RouteSpec;
import dev.portico.vhost.UpstreamLimitsSpec;
import dev.portico.vhost.VhostSpec;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns vhost specs into a {@link RoutingSnapshot}: host tables, each vhost's stage list (Caddy-style, built once
 * here and not per request), upstream groups with their schedules. Pure apart from statistics and the upstream health
 * registry, which live across snapshots; a {@link #check dry run} touches neither (its vhosts have no stats and are
 * never served).
 */
@Singleton
public class SnapshotCompiler {

    private final StatsRegistry stats;
    private final CacheRegistry caches;
    private final TrustedProxies trustedProxies;
    private final String viaPseudonym;
    /** {@code portico.upstream.max-pending}: the queue of a vhost whose upstreamLimits leave it out. */
    private final int defaultMaxPending;
    private final long defaultMaxRequestBody;
    private final int eventLoops;
    /** The vhosts' state across snapshots, by vhost id, as the last compile for publishing left it. */
    private Map<UUID, VhostRuntime> runtimes = new HashMap<>();
    private final AtomicBoolean compiling = new AtomicBoolean();
    /** Active checks and the vhosts' upstream states, kept in step with the published snapshots. */
    private final UpstreamHealthService healthService;
    /** Builds the upstream groups; owns the passive health, the DNS answers and the sticky secret across compiles. */
    private final UpstreamGroups groups;

    public SnapshotCompiler(DataPlaneSettings dataplane, UpstreamSettings upstream, StatsRegistry stats,
                            CacheRegistry caches, UpstreamHealthService healthService) {
        this.healthService = healthService;
        this.stats = stats;
        this.caches = caches;
        this.trustedProxies = TrustedProxies.parse(dataplane.trustedProxies().orElse(List.of()));
        this.viaPseudonym = dataplane.viaPseudonym()
                .orElseGet(() -> "portico-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16));
        this.defaultMaxPending = Math.max(1, upstream.maxPending());
        this.defaultMaxRequestBody = dataplane.maxRequestBody().asLongValue();
        this.eventLoops = dataplane.eventLoopCount();
        this.groups = new UpstreamGroups(upstream.maxFails(), upstream.failTimeout().toNanos(), eventLoops,
                healthService);
    }

    /**
     * Builds a snapshot to publish; statistics and health state are bound to the vhosts it contains. Calls must not
     * overlap (the reloader publishes under its lock): one that does is refused rather than made to wait, since
     * this class may never hold a monitor.
     */
    public RoutingSnapshot compile(long version, List<VhostSpec> specs) {
        return compile(version, specs, TlsMaterial.NONE);
    }

    /**
     * As {@link #compile(long, List)}, with the stored certificates and ACME challenges; a vhost whose certificate is
     * missing (its key could not be opened, or ACME has issued none yet) gets none, and its TLS handshakes are
     * refused, while everything else is served.
     */
    public RoutingSnapshot compile(long version, List<VhostSpec> specs, TlsMaterial material) {
        if (!compiling.compareAndSet(false, true)) {
            throw new IllegalStateException("another snapshot is being compiled for publishing");
        }
        try {
            return compileAlone(version, specs, material);
        } finally {
            compiling.set(false);
        }
    }

    private RoutingSnapshot compileAlone(long version, List<VhostSpec> specs, TlsMaterial material) {
        Map<UUID, CacheRegistry.Share> shares = new HashMap<>();
        for (VhostSpec spec : specs) {
            long maxBytes = caching(spec) ? spec.cache().maxBytes() : 0;
            for (RouteSpec route : spec.routes()) {
                // The routes share the vhost's store (keys are the client's URLs); the largest size bounds it.
                maxBytes = caching(route.spec()) ? Math.max(maxBytes, route.spec().cache().maxBytes()) : maxBytes;
            }
            if (maxBytes > 0) {
                shares.put(spec.id(), new CacheRegistry.Share(spec.name(), maxBytes));
            }
        }
        groups.begin();
        RoutingSnapshot snapshot = build(version, specs, caches.bind(shares), material);
        Map<UUID, VhostRuntime> next = new HashMap<>();
        Map<UUID, VhostUpstreams> upstreamStates = new HashMap<>();
        Map<UUID, List<VhostUpstreams>> routeStates = new HashMap<>();
        for (CompiledVhost vhost : snapshot.vhosts()) {
            vhost.runtime().sealed();
            next.put(vhost.spec().id(), vhost.runtime());
            VhostUpstreams states = vhost.runtime().state(VhostUpstreams.KEY);
            if (states != null) {
                upstreamStates.put(vhost.spec().id(), states);
            }
            // A route's own upstreams are checked, swept and shown with the vhost's.
            List<VhostUpstreams> parts = new ArrayList<>();
            vhost.runtime().parts().values().forEach(part -> {
                VhostUpstreams partStates = part.state(VhostUpstreams.KEY);
                if (partStates != null) {
                    parts.add(partStates);
                }
            });
            if (!parts.isEmpty()) {
                routeStates.put(vhost.spec().id(), parts);
            }
        }
        healthService.published(upstreamStates, routeStates);
        // Only now: a compile that failed above leaves the published snapshot's states to the next one.
        runtimes = next;
        Set<String> names = new HashSet<>();
        for (CompiledVhost vhost : snapshot.vhosts()) {
            names.add(vhost.name());
        }
        stats.retainVhosts(names);
        groups.published();
        return snapshot;
    }

    private static boolean caching(VhostSpec spec) {
        return spec.cache().enabled() && !spec.upstreams().isEmpty();
    }

    /**
     * Compiles without binding anything, to find out whether a candidate configuration would be accepted.
     *
     * @throws CompileException for the first vhost that cannot be compiled
     */
    public void check(List<VhostSpec> specs) {
        build(0, specs, null, TlsMaterial.NONE);
    }

    /** Sets what sticky-cookie keys are derived from, for the compiles that follow. */
    public void useStickySecret(byte[] secret) {
        groups.useStickySecret(secret);
    }

    /** The {@code Via} pseudonym of this instance. */
    public String viaPseudonym() {
        return viaPseudonym;
    }

    /**
     * Makes the next compiles expand upstream host names into {@code resolved}'s addresses; the caller recompiles
     * to apply them ({@code SnapshotReloader.recompile}).
     */
    public void useAddresses(UpstreamAddresses resolved) {
        groups.useAddresses(resolved);
    }

    /** Passive health of an upstream origin with the default TLS settings, if any vhost uses it. */
    public UpstreamHealth healthOf(String origin) {
        return groups.healthOf(origin);
    }

    /** @param stores the bound response stores by vhost id; null for a dry run, which binds nothing */
    private RoutingSnapshot build(long version, List<VhostSpec> specs, Map<UUID, ResponseStore> stores,
                                  TlsMaterial material) {
        boolean bind = stores != null;
        Map<String, CompiledVhost> byHostname = new HashMap<>();
        List<CompiledVhost> vhosts = new ArrayList<>(specs.size());
        Set<String> poolKeys = new HashSet<>();
        Map<String, String> owners = new LinkedHashMap<>();
        for (VhostSpec spec : specs) {
            CompiledVhost vhost = compileVhost(spec, stores, poolKeys, material);
            for (String hostname : spec.hostnames()) {
                String owner = owners.putIfAbsent(hostname, spec.name());
                if (owner != null) {
                    throw new CompileException(spec.name(), "hostnames",
                            "'" + hostname + "' is already served by vhost '" + owner + "'");
                }
                byHostname.put(hostname, vhost);
            }
            vhosts.add(vhost);
        }
        return new RoutingSnapshot(version, Instant.now(), vhosts, HostNameTable.of(byHostname), poolKeys,
                trustedProxies, viaPseudonym, TlsTable.forVhosts(specs, material));
    }

    private CompiledVhost compileVhost(VhostSpec spec, Map<UUID, ResponseStore> stores,
                                       Set<String> poolKeys, TlsMaterial material) {
        boolean bind = stores != null;
        // A dry run hands nothing over: its stages are never served.
        VhostRuntime runtime = new VhostRuntime(spec.id(), bind ? runtimes.get(spec.id()) : null);
        Built own = pipeline(spec, null, null, runtime, stores, poolKeys, material);
        boolean anyCompression = own.compression() != null;
        RouteTable routes = null;
        if (!spec.routes().isEmpty()) {
            routes = RouteTable.of(spec.routes(), route -> {
                // A route that keeps the vhost's upstreams and their settings shares its group (balancing, health,
                // breaker); one with its own keeps them across snapshots under its name.
                Built built = pipeline(route.spec(), route, sharesUpstreams(spec, route.spec()) ? own : null,
                        runtime.part("route:" + route.name()), stores, poolKeys, material);
                return built.stages();
            });
            anyCompression |= spec.routes().stream().anyMatch(route -> route.spec().compression().enabled());
        }
        return new CompiledVhost(spec, own.stages(), bind ? stats.forVhost(spec.name()) : null, runtime, routes,
                anyCompression);
    }

    /** One pipeline's stages, how it compresses (null when it does not), and its upstream group and breaker. */
    private record Built(Stage[] stages, CompressionPolicy compression, UpstreamGroup group, CircuitBreaker breaker) {
    }

    /** Whether a route's settings use the vhost's upstreams exactly as the vhost does. */
    private static boolean sharesUpstreams(VhostSpec vhost, VhostSpec route) {
        return route.upstreams().equals(vhost.upstreams()) && route.balance().equals(vhost.balance())
                && java.util.Objects.equals(route.healthCheck(), vhost.healthCheck())
                && route.outlierDetection().equals(vhost.outlierDetection())
                && java.util.Objects.equals(route.circuitBreaker(), vhost.circuitBreaker())
                && route.upstreamLimits().equals(vhost.upstreamLimits())
                && route.connectTimeout().equals(vhost.connectTimeout());
    }

    /**
     * The stage list for {@code spec}: a vhost's own, or a route's ({@code route} set; {@code spec} is its).
     *
     * @param inherited the vhost's pipeline, whose upstream group and breaker a route that shares them uses; or null
     */
    private Built pipeline(VhostSpec spec, RouteSpec route, Built inherited, VhostRuntime runtime,
                           Map<UUID, ResponseStore> stores, Set<String> poolKeys, TlsMaterial material) {
        boolean bind = stores != null;
        boolean proxied = !spec.upstreams().isEmpty();
        String where = route == null ? "" : "routes[" + route.name() + "].";
        if ((!proxied && spec.staticFiles() == null && route == null)
                || spec.upstreams().size() > UpstreamGroup.MAX_UPSTREAMS) {
            throw new CompileException(spec.name(), where + "upstreams",
                    "must list 1 to " + UpstreamGroup.MAX_UPSTREAMS + " upstreams (or none, when static is set)");
        }
        PoolLimits limits = poolLimits(spec);
        // The breaker's state carries over while its settings stay the same; changed settings start it closed.
        CircuitBreaker breaker = inherited != null ? inherited.breaker()
                : proxied && spec.circuitBreaker() != null ? runtime.claim(CircuitBreaker.KEY,
                spec.circuitBreaker(), () -> new CircuitBreaker(spec.circuitBreaker(), eventLoops)) : null;
        UpstreamGroup group = inherited != null ? inherited.group() : proxied
                ? groups.build(spec, route, limits, bind, poolKeys, runtime, material.certificates(), breaker) : null;

        long maxRequestBody = spec.maxRequestBody() != null ? spec.maxRequestBody() : defaultMaxRequestBody;
        CompressionPolicy compression = spec.compression().enabled() ? new CompressionPolicy(spec.compression()) : null;
        ResponseStore store = bind && proxied ? stores.get(spec.id()) : null;
        Compilation compilation = new Compilation(spec, route, runtime, proxied, compression, maxRequestBody, store,
                material.acmeChallenges());
        Stage[] stages = compilation.pipeline(StageRegistry.pipeline(
                context -> breaker != null ? new CircuitBreakerStage(breaker) : null,
                context -> proxied ? forward(spec, group, limits, retry(spec.retry(), runtime)) : null,
                trustedProxies));
        return new Built(stages, compression, group, breaker);
    }

    /**
     * How the vhost's requests use its upstreams' pools: a queue timeout left out is the connect timeout, as
     * HAProxy's {@code timeout queue} falls back to {@code timeout connect}: both bound the wait for a connection.
     */
    private PoolLimits poolLimits(VhostSpec spec) {
        int connectTimeout = (int) Math.min(Integer.MAX_VALUE, spec.connectTimeout().toMillis());
        UpstreamLimitsSpec set = spec.upstreamLimits();
        return new PoolLimits(connectTimeout, set.maxPending() != null ? set.maxPending() : defaultMaxPending,
                set.queueTimeout() != null ? set.queueTimeout().toMillis() : connectTimeout);
    }

    private ForwardStage forward(VhostSpec spec, UpstreamGroup group, PoolLimits limits, RetryPolicy retry) {
        return new ForwardStage(group, spec.preserveHost(), HeaderRulesStage.hostOverride(spec.requestHeaders()),
                limits, spec.readTimeout().toMillis(), viaPseudonym, spec.websocket(),
                spec.websocketIdleTimeout().toMillis(), retry);
    }

    /** The vhost's retry rules; its budget's windows carry over while the budget's settings stay the same. */
    private RetryPolicy retry(RetrySpec spec, VhostRuntime runtime) {
        RetryBudget budget = runtime.claim(RetryBudget.KEY,
                RetryBudget.compatibility(spec.budget(), spec.minRetriesPerSecond()),
                () -> new RetryBudget(spec.budget(), spec.minRetriesPerSecond(), eventLoops));
        return new RetryPolicy(spec, budget);
    }
}
