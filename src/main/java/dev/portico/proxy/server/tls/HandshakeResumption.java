package dev.portico.proxy.server.tls;

import dev.portico.proxy.core.counters.HandshakeCounts;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslHandler;
import io.netty.internal.tcnative.SSL;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;

import javax.net.ssl.SSLEngine;

/**
 * Whether a TLS connection's handshake resumed a session, read from its engine once the handshake is over (Vert.x
 * hands a TLS connection over only then). BoringSSL answers ({@code SSL_session_reused}: a TLS 1.3 PSK from a ticket,
 * or a TLS 1.2 ticket or session id); the JDK's engine has no public way to tell, so its handshakes are
 * {@link HandshakeCounts.Kind#UNKNOWN}.
 */
public final class HandshakeResumption {

    private HandshakeResumption() {
    }

    /** How {@code connection}'s handshake went; {@code UNKNOWN} when no TLS engine is found or it cannot tell. */
    public static HandshakeCounts.Kind of(HttpConnection connection) {
        if (!(connection instanceof ConnectionBase base)) {
            return HandshakeCounts.Kind.UNKNOWN;
        }
        SslHandler tls = base.channel().pipeline().get(SslHandler.class);
        if (tls == null) {
            return HandshakeCounts.Kind.UNKNOWN;
        }
        return of(tls.engine());
    }

    static HandshakeCounts.Kind of(SSLEngine engine) {
        if (engine instanceof ReferenceCountedOpenSslEngine openSsl) {
            // The engine's monitor is uncontended here: only this connection's loop uses the engine.
            long ssl = openSsl.sslPointer();
            if (ssl != 0) {
                return SSL.isSessionReused(ssl) ? HandshakeCounts.Kind.RESUMED : HandshakeCounts.Kind.FULL;
            }
        }
        return HandshakeCounts.Kind.UNKNOWN;
    }
}
