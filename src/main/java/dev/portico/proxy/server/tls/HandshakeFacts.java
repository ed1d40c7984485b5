package dev.portico.proxy.server.tls;

import dev.portico.proxy.core.ClientTls;

import javax.net.ssl.SSLSession;

/** Reads what a finished server handshake settled into the connection's {@link ClientTls}. */
public final class HandshakeFacts {

    private HandshakeFacts() {
    }

    /**
     * The facts of {@code session}: the server name is the one the certificate was chosen by
     * ({@link SniKeyManager#requestedServerName}), so routing and the certificate agree on what the client asked for.
     * A session Vert.x does not expose (none expected on a TLS listener) yields no name and unknown protocol.
     */
    public static ClientTls of(SSLSession session) {
        if (session == null) {
            return new ClientTls(null, "unknown", "unknown");
        }
        return new ClientTls(SniKeyManager.requestedServerName(session), session.getProtocol(),
                session.getCipherSuite());
    }
}
