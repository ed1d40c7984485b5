package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.SSLOptions;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * How a listener terminates TLS, applied to the options of its HTTP server: Portico's own engine options
 * ({@link PorticoSslEngineOptions}) and key manager ({@link SniKeyManager}), never Vert.x's SNI support, which sends
 * every SNI handshake to a worker thread and keeps one context per server name forever. The certificates are not
 * part of it: they come with each routing snapshot ({@link #presented}) and are swapped into running servers with
 * {@link #sslOptions}.
 *
 * @param fixedCertificates    certificates to present whatever the snapshots hold (tests, which bring their own);
 *                             null: the snapshots' certificates
 * @param engine               a resolved engine ({@link TlsEngine#resolve()}): {@code OPENSSL} or {@code JDK}
 * @param defaultCertificateId the stored certificate for clients that send no server name or an unknown one
 *                             ({@code portico.tls.default-certificate}); null: such handshakes are refused
 */
public record TlsTermination(TlsTable fixedCertificates, TlsEngine engine, CipherProfile profile,
                             Duration handshakeTimeout, String defaultCertificateId) {

    public TlsTermination {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        if (engine == null || engine == TlsEngine.AUTO) {
            throw new IllegalArgumentException("The TLS engine must be resolved (openssl or jdk), not " + engine);
        }
    }

    /** A termination presenting {@code certificates} only, with no default from the store. */
    public static TlsTermination fixed(TlsTable certificates, TlsEngine engine, CipherProfile profile,
                                       Duration handshakeTimeout) {
        return new TlsTermination(Objects.requireNonNull(certificates, "certificates"), engine, profile,
                handshakeTimeout, null);
    }

    /** What the listener presents when a snapshot holds {@code snapshotCertificates}. */
    public TlsTable presented(TlsTable snapshotCertificates) {
        TlsTable table = fixedCertificates != null ? fixedCertificates : snapshotCertificates;
        return table.withDefault(defaultCertificateId);
    }

    /** Makes {@code options} a TLS server's presenting {@code certificates}. */
    public HttpServerOptions applyTo(HttpServerOptions options, TlsTable certificates) {
        return options.setSsl(true)
                .setSni(false)
                .setUseAlpn(true)
                .setSslEngineOptions(new PorticoSslEngineOptions(engine, profile))
                .setKeyCertOptions(KeyCertOptions.wrap(new SniKeyManager(certificates)))
                // Vert.x sets these protocols on every engine after ours configured it: they must be the profile's.
                .setEnabledSecureTransportProtocols(profile.protocols())
                .setSslHandshakeTimeout(handshakeTimeout.toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS);
    }

    /**
     * The TLS options of a running server presenting {@code certificates}: everything {@link #applyTo} sets but the
     * engine, which stays as the server was created with (an update replaces all of these at once).
     */
    public SSLOptions sslOptions(TlsTable certificates) {
        return new SSLOptions()
                .setUseAlpn(true)
                .setKeyCertOptions(KeyCertOptions.wrap(new SniKeyManager(certificates)))
                .setEnabledSecureTransportProtocols(profile.protocols())
                .setSslHandshakeTimeout(handshakeTimeout.toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS);
    }
}
