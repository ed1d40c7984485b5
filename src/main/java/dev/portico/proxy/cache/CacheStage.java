package dev.portico.proxy.cache;

import dev.portico.cache.CacheKey;
import dev.portico.cache.ResponseStore;
import dev.portico.cache.StoredResponse;
import dev.portico.cache.Variants;
import dev.portico.cache.rules.CacheControl;
import dev.portico.cache.rules.Freshness;
import dev.portico.cache.rules.Invalidation;
import dev.portico.cache.rules.VaryKey;
import dev.portico.proxy.core.BodyFilter;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.VhostRuntime;
import dev.portico.proxy.core.outcome.CacheOutcome;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.proxy.encoding.CompressionStage;
import dev.portico.vhost.CacheSpec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A vhost's RFC 9111 shared cache: answers GET and HEAD from stored responses while they are fresh (or usable
 * stale), revalidates stale ones with the origin, collapses concurrent misses for one key into one upstream request,
 * and invalidates on unsafe methods. Built per snapshot; the {@link ResponseStore} lives across snapshots.
 */
public final class CacheStage implements Stage {

    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.TRACE);

    /** On a vhost with upstreams whose cache is on (a dry run binds no store, so builds none). */
    public static final StageFactory FACTORY = context -> context.store() == null ? null
            : new CacheStage(context.spec().cache(), context.store(), context.built(CompressionStage.class),
                    context.runtime());

    /** What this stage does for the request after its request phase: fill, revalidate, invalidate or label. */
    static final Slot<Exchange, CacheTap> TAP = Slot.declare(Exchange.class, "cache tap");

    private final CacheSpec spec;
    private final ResponseStore store;
    private final CompressionStage compression;
    private final Map<String, Fill> fills;
    private final Set<String> refreshing;
    private final long heuristicCapMillis;
    private final long staleWhileRevalidateMillis;
    private final long staleIfErrorMillis;
    private final long lockTimeoutMillis;

    /**
     * @param compression the vhost's compressor (inside this stage), or null
     * @param runtime the vhost's state across snapshots: its fills in flight are handed over while the cache keys and
     *                the store stay the same
     */
    public CacheStage(CacheSpec spec, ResponseStore store, CompressionStage compression, VhostRuntime runtime) {
        this.spec = spec;
        this.store = store;
        this.compression = compression;
        // A fill computes its key from the ignored query parameters and stores into this store: with either changed,
        // requests of the new snapshot must not join the old fills.
        CacheRuntime state = runtime.claim(CacheRuntime.KEY, List.of(spec.ignoreQueryParams(), store),
                CacheRuntime::new);
        this.fills = state.fills;
        this.refreshing = state.refreshing;
        this.heuristicCapMillis = spec.defaultTtl().toMillis();
        this.staleWhileRevalidateMillis = spec.staleWhileRevalidate().toMillis();
        this.staleIfErrorMillis = spec.staleIfError().toMillis();
        this.lockTimeoutMillis = spec.lockTimeout().toMillis();
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        HttpMethod method = exchange.request().method();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            if (!SAFE.contains(method)) {
                exchange.put(TAP, new Invalidate(exchange));
            } else {
                exchange.put(TAP, label("Portico; fwd=method"));
            }
            exchange.cacheOutcome(CacheOutcome.BYPASS);
            return Flow.NEXT;
        }
        if (exchange.upgrade() != null) {
            // A protocol switch (WebSocket handshake) is a connection, not a representation: never stored, never
            // answered from the store, never collapsed onto another request's fill.
            return bypass(exchange, "Portico; fwd=request; detail=upgrade");
        }
        MultiMap requestHeaders = exchange.request().headers();
        CacheControl requestControl = CacheControl.ofRequest(requestHeaders);
        if (requestControl.noStore()) {
            return bypass(exchange, "Portico; fwd=request; detail=no-store");
        }
        String key = CacheKey.of(exchange.target().authority(), exchange.target().pathAndQuery(),
                spec.ignoreQueryParams());
        Variants variants = store.get(key);
        String varyKey = variants == null || variants.varyFields().isEmpty() ? ""
                : VaryKey.secondaryKey(variants.varyFields(), requestHeaders);
        StoredResponse entry = variants == null ? null : variants.match(varyKey);
        boolean authorized = requestHeaders.contains(HttpHeaders.AUTHORIZATION);
        if (entry != null && authorized && !entry.authorizedSharing()) {
            return bypass(exchange, "Portico; fwd=request; detail=authorization");
        }
        long now = System.currentTimeMillis();
        if (entry != null) {
            switch (decide(entry, entry.ageMillis(now), requestControl).use()) {
                case FRESH -> {
                    HitResponder.respond(exchange, entry, "Portico; hit", CacheOutcome.HIT, now);
                    return Flow.TAKEN;
                }
                case STALE_WHILE_REVALIDATE -> {
                    HitResponder.respond(exchange, entry, "Portico; hit; detail=stale-while-revalidate",
                            CacheOutcome.STALE, now);
                    refresh(exchange, key, entry);
                    return Flow.TAKEN;
                }
                default -> {
                    // Stale: revalidate below.
                }
            }
        }
        if (requestControl.onlyIfCached()) {
            // RFC 9111 section 5.2.1.7: nothing usable without the origin, which the client forbids contacting.
            exchange.replyLocal(LocalReason.NOT_CACHED, "Nothing usable is stored and the request is only-if-cached");
            return Flow.TAKEN;
        }
        if (method == HttpMethod.HEAD && entry == null) {
            return bypass(exchange, "Portico; fwd=uri-miss; detail=head");
        }
        if (requestHeaders.contains(HttpHeaderNames.RANGE) && entry == null) {
            return bypass(exchange, "Portico; fwd=uri-miss; detail=range");
        }
        String fillKey = varyKey.isEmpty() ? key : key + '\n' + varyKey;
        Fill running = fills.get(fillKey);
        Fill fill = null;
        if (running == null) {
            // The request's headers change before the response arrives: our validators replace the client's below,
            // and later stages apply the vhost's edits. The fill keys the variant and answers the client's own
            // conditions and range from the headers as they came, the same ones lookups use.
            MultiMap clientHeaders = MultiMap.caseInsensitiveMultiMap().addAll(requestHeaders);
            fill = new Fill(this, key, fillKey, exchange.loop().context(), entry, clientHeaders, requestControl);
            running = fills.putIfAbsent(fillKey, fill);
        }
        if (running != null) {
            new FillWaiter(this, exchange, exchange.loop().context()).await(running, lockTimeoutMillis);
            return Flow.TAKEN;
        }
        if (entry != null) {
            // Ask the origin whether what we hold is still good, with our validators instead of the client's.
            Validators.askAbout(entry, requestHeaders);
            if (method == HttpMethod.HEAD) {
                requestHeaders.set(HttpHeaders.CACHE_CONTROL, "no-cache");
            }
        }
        exchange.put(TAP, fill);
        exchange.cacheOutcome(CacheOutcome.MISS);
        return Flow.NEXT;
    }

    @Override
    public Flow onUpstreamResponse(Exchange exchange, int status) {
        CacheTap tap = exchange.get(TAP);
        return tap != null && tap.head(exchange, status) ? Flow.TAKEN : Flow.NEXT;
    }

    @Override
    public Flow onUpstreamFailure(Exchange exchange, LocalReason reason) {
        CacheTap tap = exchange.get(TAP);
        return tap != null && tap.failed(exchange, reason) ? Flow.TAKEN : Flow.NEXT;
    }

    @Override
    public void onResponseHead(Exchange exchange) {
        CacheTap tap = exchange.get(TAP);
        if (tap != null) {
            tap.noUpstreamResponse();
        }
    }

    @Override
    public BodyFilter onResponseBody(Exchange exchange) {
        CacheTap tap = exchange.get(TAP);
        return tap == null ? null : tap.body();
    }

    @Override
    public void onComplete(Exchange exchange) {
        CacheTap tap = exchange.get(TAP);
        if (tap != null) {
            tap.noUpstreamResponse();
        }
    }

    private Flow bypass(Exchange exchange, String cacheStatus) {
        exchange.cacheOutcome(CacheOutcome.BYPASS);
        exchange.put(TAP, label(cacheStatus));
        return Flow.NEXT;
    }

    /** Refreshes a stale entry in the background, once per key at a time. */
    private void refresh(Exchange exchange, String key, StoredResponse entry) {
        if (!refreshing.add(key)) {
            return;
        }
        // A refresh on another event loop may have landed between this request's lookup and now: the entry it read
        // is then replaced already, and one more trip to the origin would be for nothing.
        Variants now = store.get(key);
        if (now == null || now.match(entry.varyKey()) != entry) {
            refreshing.remove(key);
            return;
        }
        BackgroundRefresh.start(this, exchange, key, entry)
                .onComplete(done -> refreshing.remove(key));
    }

    /** A tap that only labels the response with its {@code Cache-Status}. */
    static CacheTap label(String cacheStatus) {
        return new CacheTap() {
            @Override
            public boolean head(Exchange exchange, int status) {
                exchange.response().headers().set(HitResponder.CACHE_STATUS, cacheStatus);
                return false;
            }
        };
    }

    /** RFC 9111 section 4.4: a successful unsafe request invalidates its target and the URIs its response names. */
    private final class Invalidate implements CacheTap {
        private final Exchange exchange;

        Invalidate(Exchange exchange) {
            this.exchange = exchange;
        }

        @Override
        public boolean head(Exchange ignored, int status) {
            exchange.response().headers().set(HitResponder.CACHE_STATUS, "Portico; fwd=method");
            if (status >= 200 && status < 400) {
                String authority = exchange.target().authority();
                String scheme = exchange.request().isSSL() ? "https" : "http";
                List<String> targets = Invalidation.targets(scheme, authority, exchange.target().pathAndQuery(),
                        exchange.response().headers());
                for (String path : targets) {
                    store.invalidate(CacheKey.of(authority, path, spec.ignoreQueryParams()));
                }
            }
            return false;
        }
    }

    void fillEnded(String fillKey, Fill fill) {
        fills.remove(fillKey, fill);
    }

    /**
     * Whether a stale entry may answer when the origin fails (RFC 5861 stale-if-error): while its staleness is
     * inside the window. A response is stale from the moment its age reaches its lifetime, so with no window
     * ({@code must-revalidate}) not even in that first millisecond.
     */
    boolean mayServeStaleOnError(StoredResponse entry, CacheControl requestControl, long now) {
        long age = entry.ageMillis(now);
        return age - entry.lifetimeMillis() < decide(entry, age, requestControl).staleIfErrorMillis();
    }

    private Freshness.Decision decide(StoredResponse entry, long ageMillis, CacheControl requestControl) {
        return Freshness.evaluate(entry.lifetimeMillis(), ageMillis, entry.control(), requestControl,
                staleWhileRevalidateMillis, staleIfErrorMillis);
    }

    /**
     * Whether a response Storability allows would get no lifetime at all: it states none and the vhost has no default
     * TTL for a heuristic one. Such a response is not stored (nginx without proxy_cache_valid), except with
     * {@code no-cache}, which asks to be stored and revalidated on every use.
     */
    boolean lacksFreshness(MultiMap responseHeaders, CacheControl control) {
        return heuristicCapMillis == 0 && !control.hasLifetime() && !control.noCache()
                && !responseHeaders.contains(HttpHeaders.EXPIRES);
    }

    List<String> varyFieldsOf(String key) {
        Variants variants = store.get(key);
        return variants == null ? List.of() : variants.varyFields();
    }

    ResponseStore store() {
        return store;
    }

    /** The vhost's compressor, or null. */
    CompressionStage compression() {
        return compression;
    }

    long heuristicCapMillis() {
        return heuristicCapMillis;
    }

    long maxObjectBytes() {
        return spec.maxObjectBytes();
    }
}
