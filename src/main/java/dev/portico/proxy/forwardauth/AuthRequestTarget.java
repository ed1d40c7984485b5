package dev.portico.proxy.forwardauth;

import java.net.URI;
import java.util.Locale;

/** Where the auth service listens, taken apart once per snapshot from the validated URL. */
record AuthRequestTarget(String host, int port, boolean tls, String pathAndQuery) {

    static AuthRequestTarget of(String url) {
        URI uri = URI.create(url);
        boolean tls = uri.getScheme().toLowerCase(Locale.ROOT).equals("https");
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String query = uri.getRawQuery();
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        return new AuthRequestTarget(host, port, tls, query == null ? path : path + "?" + query);
    }

    /** The {@code Host} field: the port left out when it is the scheme's own. */
    String authority() {
        String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? name : name + ":" + port;
    }
}
