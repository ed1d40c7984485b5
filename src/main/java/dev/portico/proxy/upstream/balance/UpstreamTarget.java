package dev.portico.proxy.upstream.balance;

import dev.portico.vhost.UpstreamSpec;
import io.vertx.core.net.SocketAddress;

import java.net.InetAddress;

/**
 * One upstream of a compiled vhost, with what the hot path needs precomputed.
 *
 * @param index position in its group (below 64, used as a bit in a per-request "tried" mask)
 * @param server where to connect: the URL's host (resolved when connecting), or one address DNS gave for it
 * @param peerHost the name requests give the server (TLS server name and certificate check): {@code tls.serverName},
 *                 or the URL's host when {@code server} is one of its addresses; null when the server's host is it
 * @param poolKey the per-event-loop connection pool to use: same protocol, origin, connect timeout, wait queue size
 *                ({@code maxPending}) and TLS settings share one
 * @param tls the TLS client settings, {@link UpstreamTls#DEFAULT} for {@code http://} upstreams
 */
public record UpstreamTarget(int index, UpstreamSpec spec, SocketAddress server, String peerHost, String poolKey,
                             UpstreamHealth health, UpstreamTls tls) {

    /**
     * The target for {@code spec}, at position {@code index} of its group.
     *
     * @param clientCertificate what the upstream presents when an origin asks for a client certificate; null for
     *                          none (the seam for {@code tls.clientCertificate}, resolved from the certificate store)
     */
    public static UpstreamTarget of(int index, UpstreamSpec spec, int connectTimeoutMillis, int maxPending,
                                    UpstreamHealth health, UpstreamTls.ClientCertificate clientCertificate) {
        return of(index, spec, null, connectTimeoutMillis, maxPending, health, clientCertificate);
    }

    /**
     * The target for one {@code address} of {@code spec}'s host name (from DNS), or for the host itself when
     * {@code address} is null. Each address gets its own pool: a connection to one is never used for another.
     */
    public static UpstreamTarget of(int index, UpstreamSpec spec, InetAddress address, int connectTimeoutMillis,
                                    int maxPending, UpstreamHealth health,
                                    UpstreamTls.ClientCertificate clientCertificate) {
        UpstreamTls tls = tls(spec, clientCertificate);
        // The protocol is part of the key: an h2 pool multiplexes, an HTTP/1.1 pool never does.
        String poolKey = spec.protocol().token() + "|" + spec.origin() + addressSuffix(address) + "|"
                + connectTimeoutMillis + "|" + maxPending + tls.poolKeySuffix();
        SocketAddress server = address == null ? SocketAddress.inetSocketAddress(spec.port(), spec.host())
                : SocketAddress.inetSocketAddress(spec.port(), address.getHostAddress());
        String peerHost = tls.serverName() != null ? tls.serverName() : address == null ? null : spec.host();
        return new UpstreamTarget(index, spec, server, peerHost, poolKey, health, tls);
    }

    private static String addressSuffix(InetAddress address) {
        return address == null ? "" : "@" + address.getHostAddress();
    }

    /**
     * What passive health is kept under: the origin, and its TLS settings when they are not the defaults. A
     * handshake that fails because of one vhost's TLS settings (a wrong CA bundle, a missing client certificate)
     * then marks down only the upstreams with those settings, never the origin for the other vhosts using it.
     */
    public static String healthKey(UpstreamSpec spec, UpstreamTls.ClientCertificate clientCertificate) {
        return healthKey(spec, null, clientCertificate);
    }

    /** As {@link #healthKey(UpstreamSpec, UpstreamTls.ClientCertificate)}, for one address of the host: its own. */
    public static String healthKey(UpstreamSpec spec, InetAddress address,
                                   UpstreamTls.ClientCertificate clientCertificate) {
        return spec.origin() + addressSuffix(address) + tls(spec, clientCertificate).poolKeySuffix();
    }

    /** The address DNS gave for the URL's host name that this target connects to; null when it connects by the URL. */
    public String resolvedAddress() {
        return server.host().equals(spec.host()) ? null : server.host();
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
