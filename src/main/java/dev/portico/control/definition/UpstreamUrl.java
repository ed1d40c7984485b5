package dev.portico.control.definition;

import dev.portico.vhost.UpstreamProtocol;
import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.UpstreamTlsSpec;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Parses an upstream URL ({@code http(s)://host[:port][/base-path]}) into an {@link UpstreamSpec}. */
final class UpstreamUrl {

    private UpstreamUrl() {
    }

    /**
     * @param tlsSettings the upstream's checked TLS settings (null for the defaults)
     * @throws IllegalArgumentException with a reason fit for an API error
     */
    static UpstreamSpec parse(String url, int weight, UpstreamTlsSpec tlsSettings) {
        return parse(url, weight, tlsSettings, null);
    }

    /** @param protocol the upstream's checked protocol (null for HTTP/1.1) */
    static UpstreamSpec parse(String url, int weight, UpstreamTlsSpec tlsSettings, UpstreamProtocol protocol) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("must start with http:// or https://");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("must not contain user information");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("must not contain a query or fragment");
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("must name a host");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        boolean tls = scheme.equals("https");
        int port = uri.getPort() == -1 ? (tls ? 443 : 80) : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("has a port outside 1-65535");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return new UpstreamSpec(url.trim(), tls, host.toLowerCase(Locale.ROOT), port, path, weight,
                tlsSettings, protocol);
    }
}
