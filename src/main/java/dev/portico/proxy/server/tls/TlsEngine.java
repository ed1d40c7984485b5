package dev.portico.proxy.server.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import org.jboss.logging.Logger;

/**
 * Which implementation of TLS the listener runs. BoringSSL (netty-tcnative) does a full handshake several times
 * faster than the JDK's engine and is what nginx-class speed needs; the JDK's engine works on every platform.
 */
public enum TlsEngine {

    /** BoringSSL when its native library loads on this platform, the JDK's engine otherwise. */
    AUTO(null),
    /** BoringSSL through netty-tcnative; start-up fails when its native library does not load. */
    OPENSSL(SslProvider.OPENSSL),
    /** The JDK's own engine. */
    JDK(SslProvider.JDK);

    private static final Logger LOG = Logger.getLogger(TlsEngine.class);

    private final SslProvider provider;

    TlsEngine(SslProvider provider) {
        this.provider = provider;
    }

    /**
     * The engine this choice runs on here ({@link #OPENSSL} or {@link #JDK}), logged with the reason. Loads the
     * native library the first time: call it at start-up, never on an event loop.
     *
     * @throws IllegalStateException when {@link #OPENSSL} is asked for and its native library does not load
     */
    public TlsEngine resolve() {
        if (this == JDK) {
            LOG.info("TLS listener engine: JDK (portico.tls.engine=jdk)");
            return JDK;
        }
        if (OpenSsl.isAvailable()) {
            LOG.infof("TLS listener engine: OpenSSL (%s, portico.tls.engine=%s)", OpenSsl.versionString(),
                    name().toLowerCase());
            return OPENSSL;
        }
        if (this == OPENSSL) {
            throw new IllegalStateException("portico.tls.engine=openssl, but netty-tcnative does not load here: "
                    + OpenSsl.unavailabilityCause());
        }
        LOG.infof("TLS listener engine: JDK (OpenSSL does not load here: %s)", OpenSsl.unavailabilityCause());
        return JDK;
    }

    /** Netty's name for a resolved engine. */
    SslProvider sslProvider() {
        if (provider == null) {
            throw new IllegalStateException("The engine choice " + this + " is not resolved");
        }
        return provider;
    }
}
