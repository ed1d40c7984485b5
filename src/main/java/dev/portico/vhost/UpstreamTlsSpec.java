package dev.portico.vhost;

import java.util.UUID;

/**
 * How Portico's TLS client talks to one {@code https://} upstream (nginx's {@code proxy_ssl_trusted_certificate},
 * {@code proxy_ssl_verify} and {@code proxy_ssl_name}). Validated: the bundle parses as certificates, the name is a
 * DNS host name.
 *
 * @param caBundle   PEM text of the certificates trusted for this upstream instead of the JVM's default trust store;
 *                   null for the default trust store
 * @param verify     whether the upstream's certificate is checked (chain and host name); false trusts any certificate
 * @param serverName the name sent in SNI and checked against the certificate, instead of the URL's host; null for
 *                   the URL's host
 * @param clientCertificate the stored certificate presented when the upstream asks for one (mutual TLS), or null
 */
public record UpstreamTlsSpec(String caBundle, boolean verify, String serverName, UUID clientCertificate) {

    /** The JVM's trust store, full verification, the URL's host, no client certificate. */
    public static final UpstreamTlsSpec DEFAULT = new UpstreamTlsSpec(null, true, null, null);

    /** Whether these are the settings of an upstream that says nothing about TLS. */
    public boolean isDefault() {
        return equals(DEFAULT);
    }
}
