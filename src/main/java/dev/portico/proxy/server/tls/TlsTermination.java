package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.TlsTable;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * How a listener terminates TLS, applied to the options of its HTTP server: Portico's own engine options
 * ({@link PorticoSslEngineOptions}) and key manager ({@link SniKeyManager}), never Vert.x's SNI support, which sends
 * every SNI handshake to a worker thread and keeps one context per server name forever. The certificates are not
 * part of it: they come with each routing snapshot ({@link #presented}) and are swapped into running servers through
 * {@link PresentedCertificates}.
 *
 * @param fixedCertificates    certificates to present whatever the snapshots hold (tests, which bring their own);
 *                             null: the snapshots' certificates
 * @param engine               a resolved engine ({@link TlsEngine#resolve()}): {@code OPENSSL} or {@code JDK}
 * @param defaultCertificateId the stored certificate for clients that send no server name or an unknown one
 *                             ({@code portico.tls.default-certificate}); null: such handshakes are refused
 * @param presenting           what the listener presents now, shared by its servers on every loop; null: a new one
 */
public record TlsTermination(TlsTable fixedCertificates, TlsEngine engine, CipherProfile profile,
                             Duration handshakeTimeout, String defaultCertificateId, PresentedCertificates presenting) {

    public TlsTermination(TlsTable fixedCertificates, TlsEngine engine, CipherProfile profile,
                          Duration handshakeTimeout, String defaultCertificateId) {
        this(fixedCertificates, engine, profile, handshakeTimeout, defaultCertificateId, null);
    }

    public TlsTermination {
        presenting = presenting == null ? new PresentedCertificates(TlsTable.EMPTY) : presenting;
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

    /**
     * Presents {@code snapshot}'s certificates from the next handshake on, on every loop's server of the listener;
     * open connections keep theirs. Called by one thread at a time, in snapshot order.
     */
    public void presentFrom(RoutingSnapshot snapshot) {
        presenting.present(presented(snapshot.tls()));
    }

    /** What the listener presents when a snapshot holds {@code snapshotCertificates}. */
    public TlsTable presented(TlsTable snapshotCertificates) {
        TlsTable table = fixedCertificates != null ? fixedCertificates : snapshotCertificates;
        return table.withDefault(defaultCertificateId);
    }

    /** Makes {@code options} a TLS server's presenting what {@code certificates} holds, now and after each swap. */
    public HttpServerOptions applyTo(HttpServerOptions options, PresentedCertificates certificates) {
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
}
