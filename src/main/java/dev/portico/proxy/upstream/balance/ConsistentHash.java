package dev.portico.proxy.upstream.balance;

import dev.portico.proxy.core.Exchange;
import dev.portico.vhost.BalanceSpec.HashKey;

import java.util.List;

/**
 * Consistent hashing on a request key (the client address, a header, a cookie or the path) over a {@link KetamaRing}:
 * the same key reaches the same upstream on every loop and every replica with the same upstreams, and an upstream that
 * is out or already tried passes its keys to the next one round the ring. A request without the key (no such header
 * or cookie) goes by the smooth weighted round robin, as in HAProxy. The ring is immutable; the per-loop state is only
 * that round robin's cursor.
 */
public final class ConsistentHash implements UpstreamSelector<SmoothWeightedRoundRobin.Cursor> {

    private final KetamaRing ring;
    private final HashKey key;
    private final SmoothWeightedRoundRobin keyless;
    private final Object compatibility;

    /** @param identities each upstream's URL (repeated ones made distinct), the ring's point names */
    public ConsistentHash(List<String> identities, List<String> origins, int[] weights, HashKey key) {
        this.ring = new KetamaRing(identities, weights);
        this.key = key;
        this.keyless = new SmoothWeightedRoundRobin(origins, weights);
        this.compatibility = SmoothWeightedRoundRobin.compatibility("hash", origins, weights);
    }

    @Override
    public SmoothWeightedRoundRobin.Cursor newLoopState() {
        return keyless.newLoopState();
    }

    @Override
    public int pick(SmoothWeightedRoundRobin.Cursor cursor, UpstreamAvailability upstreams, Exchange request,
                    long tried, long nowNanos) {
        String value = request == null ? null : keyOf(request);
        if (value == null) {
            return keyless.pick(cursor, upstreams, tried, nowNanos);
        }
        return ring.owner(KetamaRing.hash(value), tried, upstreams, nowNanos);
    }

    /** The text hashed for {@code request}, or null when it has none. */
    private String keyOf(Exchange request) {
        return switch (key.kind()) {
            case CLIENT_ADDRESS -> request.clientAddress();
            case PATH -> path(request.target() == null ? request.request().path() : request.target().pathAndQuery());
            case HEADER -> request.request().getHeader(key.name());
            case COOKIE -> RequestCookies.value(request.request().headers(), key.name());
        };
    }

    /** The path without its query: {@code /a?b} and {@code /a?c} are the same resource's key (nginx's $uri). */
    private static String path(String pathAndQuery) {
        if (pathAndQuery == null) {
            return null;
        }
        int query = pathAndQuery.indexOf('?');
        return query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
    }

    @Override
    public Object compatibility() {
        return compatibility;
    }
}
