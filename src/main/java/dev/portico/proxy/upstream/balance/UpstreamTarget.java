package dev.portico.proxy.upstream.balance;

import dev.portico.vhost.UpstreamSpec;
import io.vertx.core.net.SocketAddress;

/**
 * One upstream of a compiled vhost, with what the hot path needs precomputed.
 *
 * @param index position in its group (below 64, used as a bit in a per-request "tried" mask)
 * @param poolKey the per-event-loop connection pool to use: same protocol, origin, connect timeout and TLS settings
 *                share one
 * @param tls the TLS client settings, {@link UpstreamTls#DEFAULT} for {@code http://} upstreams
 */
public record UpstreamTarget(int index, UpstreamSpec spec, SocketAddress server, String poolKey,
                             UpstreamHealth health, UpstreamTls tls) {

    /**
     * The target for {@code spec}, at position {@code index} of its group.
     *
     * @param clientCertificate what the upstream presents when an origin asks for a client certificate; null for
     *                          none (the seam for {@code tls.clientCertificate}, resolved from the certificate store)
     */
    public static UpstreamTarget of(int index, UpstreamSpec spec, int connectTimeoutMillis, UpstreamHealth health,
                                    UpstreamTls.ClientCertificate clientCertificate) {
        UpstreamTls tls = tls(spec, clientCertificate);
        // The protocol is part of the key: an h2 pool multiplexes, an HTTP/1.1 pool never does.
        String poolKey = spec.protocol().token() + "|" + spec.origin() + "|" + connectTimeoutMillis
                + tls.poolKeySuffix();
        return new UpstreamTarget(index, spec, SocketAddress.inetSocketAddress(spec.port(), spec.host()), poolKey,
                health, tls);
    }

    /**
     * What passive health is kept under: the origin, and its TLS settings when they are not the defaults. A
     * handshake that fails because of one vhost's TLS settings (a wrong CA bundle, a missing client certificate)
     * then marks down only the upstreams with those settings, never the origin for the other vhosts using it.
     */
    public static String healthKey(UpstreamSpec spec, UpstreamTls.ClientCertificate clientCertificate) {
        return spec.origin() + tls(spec, clientCertificate).poolKeySuffix();
    }

    private static UpstreamTls tls(UpstreamSpec spec, UpstreamTls.ClientCertificate clientCertificate) {
        return spec.tlsSettings().isDefault() && clientCertificate == null
                ? UpstreamTls.DEFAULT
                : new UpstreamTls(spec.tlsSettings(), clientCertificate);
    }

    /** The request target sent to this upstream: its base path, then the client's path and query. */
    public String uriFor(String pathAndQuery) {
        String base = spec.basePath();
        return base.isEmpty() ? pathAndQuery : pathAndQuery.equals("*") ? base : base + pathAndQuery;
    }
}
