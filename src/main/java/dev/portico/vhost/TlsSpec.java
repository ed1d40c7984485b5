package dev.portico.vhost;

import java.util.UUID;

/**
 * HTTPS for one vhost. Off ({@link #NONE}) unless the vhost asks.
 *
 * @param certificate   the stored certificate presented for the vhost's host names, or null
 * @param acme          whether Portico obtains and renews the certificate itself (ACME)
 * @param httpsRedirect whether the cleartext listener answers with a 308 to the https URL (ACME's HTTP-01
 *                      challenges excepted)
 * @param hsts          the Strict-Transport-Security header sent over TLS, or null for none
 */
public record TlsSpec(UUID certificate, boolean acme, boolean httpsRedirect, Hsts hsts) {

    /** No TLS settings: served over cleartext, and over TLS only with the listener's default certificate. */
    public static final TlsSpec NONE = new TlsSpec(null, false, false, null);

    /**
     * RFC 6797 Strict-Transport-Security.
     *
     * @param maxAgeSeconds how long browsers keep to https for this host
     */
    public record Hsts(long maxAgeSeconds, boolean includeSubDomains, boolean preload) {

        /** The header value, e.g. {@code max-age=31536000; includeSubDomains}. */
        public String headerValue() {
            return "max-age=" + maxAgeSeconds + (includeSubDomains ? "; includeSubDomains" : "")
                    + (preload ? "; preload" : "");
        }
    }
}
