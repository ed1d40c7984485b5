package dev.portico.vhost;

import java.util.Locale;

/** How Portico speaks to one upstream: HTTP/1.1, HTTP/2 over TLS (ALPN) or HTTP/2 over cleartext (prior knowledge). */
public enum UpstreamProtocol {
    HTTP_1_1("http/1.1"),
    /** HTTP/2 negotiated by ALPN; only on {@code https://} upstreams. */
    H2("h2"),
    /** HTTP/2 with prior knowledge (RFC 9113 §3.3), no {@code Upgrade: h2c}; only on {@code http://} upstreams. */
    H2C("h2c");

    private final String token;

    UpstreamProtocol(String token) {
        this.token = token;
    }

    /** The API's spelling: {@code http/1.1}, {@code h2} or {@code h2c}. */
    public String token() {
        return token;
    }

    public boolean http2() {
        return this != HTTP_1_1;
    }

    /** The protocol spelled {@code token} (case-insensitive), null when there is none. */
    public static UpstreamProtocol ofToken(String token) {
        String t = token.trim().toLowerCase(Locale.ROOT);
        for (UpstreamProtocol p : values()) {
            if (p.token.equals(t)) {
                return p;
            }
        }
        return null;
    }
}
