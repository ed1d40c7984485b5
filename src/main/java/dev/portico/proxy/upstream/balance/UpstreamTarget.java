package dev.portico.proxy.upstream.balance;

import dev.portico.vhost.UpstreamSpec;
import io.vertx.core.net.SocketAddress;

/**
 * One upstream of a compiled vhost, with what the hot path needs precomputed.
 *
 * @param index position in its group (below 64, used as a bit in a per-request "tried" mask)
 * @param poolKey the per-event-loop connection pool to use: same origin and connect timeout share one
 */
public record UpstreamTarget(int index, UpstreamSpec spec, SocketAddress server, String poolKey,
                             UpstreamHealth health) {

    /** The request target sent to this upstream: its base path, then the client's path and query. */
    public String uriFor(String pathAndQuery) {
        String base = spec.basePath();
        return base.isEmpty() ? pathAndQuery : pathAndQuery.equals("*") ? base : base + pathAndQuery;
    }
}
