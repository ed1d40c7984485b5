package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * How a listener terminates TLS, applied to the options of its HTTP server: Portico's own engine options
 * ({@link PorticoSslEngineOptions}) and key manager ({@link SniKeyManager}), never Vert.x's SNI support, which sends
 * every SNI handshake to a worker thread and keeps one context per server name forever.
 *
 * @param engine a resolved engine ({@link TlsEngine#resolve()}): {@code OPENSSL} or {@code JDK}
 */
public record TlsTermination(TlsTable certificates, TlsEngine engine, CipherProfile profile,
                             Duration handshakeTimeout) {

    public TlsTermination {
        Objects.requireNonNull(certificates, "certificates");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        if (engine == null || engine == TlsEngine.AUTO) {
            throw new IllegalArgumentException("The TLS engine must be resolved (openssl or jdk), not " + engine);
        }
    }

    /** Makes {@code options} a TLS server's. */
    public HttpServerOptions applyTo(HttpServerOptions options) {
        return options.setSsl(true)
                .setSni(false)
                .setUseAlpn(true)
                .setSslEngineOptions(new PorticoSslEngineOptions(engine, profile, certificates))
                .setKeyCertOptions(KeyCertOptions.wrap(new SniKeyManager(certificates)))
                // Vert.x sets these protocols on every engine after ours configured it: they must be the profile's.
                .setEnabledSecureTransportProtocols(profile.protocols())
                .setSslHandshakeTimeout(handshakeTimeout.toMillis())
                .setSslHandshakeTimeoutUnit(TimeUnit.MILLISECONDS);
    }
}
