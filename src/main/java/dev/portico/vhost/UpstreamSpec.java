package dev.portico.vhost;

/**
 * One origin server of a vhost: where to connect, the path prefix to put in front of every forwarded path,
 * and its share of the traffic.
 *
 * @param basePath empty, or a path starting with {@code /} and without a trailing slash
 */
public record UpstreamSpec(String url, boolean tls, String host, int port, String basePath, int weight) {

    /** {@code scheme://host:port}: upstreams with the same origin share connection pools and health state. */
    public String origin() {
        return (tls ? "https://" : "http://") + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** The {@code Host} header value naming this upstream, without the port when it is the scheme's default. */
    public String authority() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? h : h + ":" + port;
    }
}
