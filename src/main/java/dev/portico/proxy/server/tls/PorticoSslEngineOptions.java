package dev.portico.proxy.server.tls;

import io.vertx.core.net.SSLEngineOptions;
import io.vertx.core.spi.tls.SslContextFactory;

/**
 * Vert.x's hook for the TLS engine of a server, taken over so Portico builds the Netty context itself
 * ({@link PorticoSslContextFactory}): the engine chosen at start (Vert.x picks the JDK's even when BoringSSL loads),
 * the profile's protocols and ciphers, ALPN offering the listener's protocols, and SNI answered on the event loop. Immutable, so
 * {@link #copy} is the instance itself.
 */
final class PorticoSslEngineOptions extends SSLEngineOptions {

    private final TlsEngine engine;
    private final CipherProfile profile;

    PorticoSslEngineOptions(TlsEngine engine, CipherProfile profile) {
        this.engine = engine;
        this.profile = profile;
        // Handshake work (BoringSSL's delegated tasks) runs inline on the loop, as nginx does on its workers.
        setUseWorkerThread(false);
    }

    @Override
    public SSLEngineOptions copy() {
        return this;
    }

    @Override
    public SslContextFactory sslContextFactory() {
        return new PorticoSslContextFactory(engine.sslProvider(), profile);
    }
}
