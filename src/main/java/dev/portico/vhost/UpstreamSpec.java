package dev.portico.vhost;

/**
 * One origin server of a vhost: where to connect, the path prefix to put in front of every forwarded path,
 * its share of the traffic and, for {@code https://}, how its certificate is checked.
 *
 * @param tls         whether the URL is {@code https://}
 * @param basePath    empty, or a path starting with {@code /} and without a trailing slash
 * @param tlsSettings the TLS client settings; {@link UpstreamTlsSpec#DEFAULT} for {@code http://} upstreams
 * @param protocol    HTTP/1.1, h2 ({@code https://} only) or h2c ({@code http://} only)
 * @param backup      receives requests only when no primary (non-backup) upstream of the vhost is available
 */
public record UpstreamSpec(String url, boolean tls, String host, int port, String basePath, int weight,
                           UpstreamTlsSpec tlsSettings, UpstreamProtocol protocol, boolean backup) {

    public UpstreamSpec {
        tlsSettings = tlsSettings == null ? UpstreamTlsSpec.DEFAULT : tlsSettings;
        protocol = protocol == null ? UpstreamProtocol.HTTP_1_1 : protocol;
    }

    /** A primary upstream. */
    public UpstreamSpec(String url, boolean tls, String host, int port, String basePath, int weight,
                        UpstreamTlsSpec tlsSettings, UpstreamProtocol protocol) {
        this(url, tls, host, port, basePath, weight, tlsSettings, protocol, false);
    }

    /** The same upstream, as a backup or a primary. */
    public UpstreamSpec asBackup(boolean backup) {
        return new UpstreamSpec(url, tls, host, port, basePath, weight, tlsSettings, protocol, backup);
    }

    /** An HTTP/1.1 upstream. */
    public UpstreamSpec(String url, boolean tls, String host, int port, String basePath, int weight,
                        UpstreamTlsSpec tlsSettings) {
        this(url, tls, host, port, basePath, weight, tlsSettings, UpstreamProtocol.HTTP_1_1);
    }

    /**
     * {@code scheme://host:port}: upstreams with the same origin share health state, and connection pools when their
     * TLS settings are the same too.
     */
    public String origin() {
        return (tls ? "https://" : "http://") + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** The {@code Host} header value naming this upstream, without the port when it is the scheme's default. */
    public String authority() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? h : h + ":" + port;
    }
}
