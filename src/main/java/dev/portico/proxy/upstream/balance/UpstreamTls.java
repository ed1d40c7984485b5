package dev.portico.proxy.upstream.balance;

import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.UpstreamTlsSpec;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The compiled TLS client settings of one {@code https://} upstream: its {@link UpstreamTlsSpec} and the client
 * certificate it presents when the origin asks for one (mutual TLS). Every distinct setting gets its own connection
 * pool ({@link #poolKeySuffix()}): a connection verified against one CA bundle, or opened with one client certificate,
 * must never serve an upstream configured otherwise.
 *
 * @param clientCertificate presented to origins that request a client certificate; null for none
 */
public record UpstreamTls(UpstreamTlsSpec settings, ClientCertificate clientCertificate) {

    private static final Logger LOG = Logger.getLogger(UpstreamTls.class);

    /** The defaults: the JVM's trust store, the URL's host, no client certificate. */
    public static final UpstreamTls DEFAULT = new UpstreamTls(UpstreamTlsSpec.DEFAULT, null);

    /**
     * A client certificate with its private key, as the certificate store hands it over.
     *
     * @param alias names this certificate and version of it (a changed certificate comes with a new alias): it is
     *              part of the pool key, so a renewed certificate gets fresh connections
     * @param chain the leaf first, then its intermediates
     */
    public record ClientCertificate(String alias, X509Certificate[] chain, PrivateKey privateKey) {

        public ClientCertificate {
            Objects.requireNonNull(alias, "alias");
            Objects.requireNonNull(privateKey, "privateKey");
            if (chain.length == 0) {
                throw new IllegalArgumentException("Client certificate " + alias + " has an empty chain");
            }
            chain = chain.clone();
        }

        /** The chain, leaf first (a copy: the compiled upstream stays immutable). */
        @Override
        public X509Certificate[] chain() {
            return chain.clone();
        }
    }

    public UpstreamTls {
        Objects.requireNonNull(settings, "settings");
    }

    /** Whether the upstream's certificate is trusted without any check ({@code tls.verify: false}). */
    public boolean trustsAnyCertificate() {
        return !settings.verify();
    }

    /** The host name for SNI and the certificate check when it is not the URL's host; null otherwise. */
    public String serverName() {
        return settings.serverName();
    }

    /**
     * Empty for the defaults, so pool keys stay what they were; otherwise {@code |tls:} and a digest of every
     * setting. A digest rather than the settings themselves: a CA bundle may be hundreds of KiB, and the key is
     * compared on every request.
     */
    public String poolKeySuffix() {
        if (settings.isDefault() && clientCertificate == null) {
            return "";
        }
        StringBuilder identity = new StringBuilder()
                .append(settings.verify()).append('\n')
                .append(settings.serverName()).append('\n')
                .append(clientCertificate == null ? null : clientCertificate.alias()).append('\n')
                .append(settings.caBundle());
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(identity.toString().getBytes(StandardCharsets.UTF_8));
            return "|tls:" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }

    /**
     * Logs the warning an operator must see for an upstream whose certificate is not checked: called once for every
     * snapshot compiled for publishing (so it shows again after each reload, never per request).
     */
    public void warnIfUnverified(String vhost, UpstreamSpec upstream) {
        if (trustsAnyCertificate()) {
            LOG.warnf("vhost '%s', upstream %s: tls.verify is false, so any certificate is accepted and the "
                    + "connection can be intercepted; trust the origin's CA with tls.caBundle instead", vhost,
                    upstream.url());
        }
    }
}
