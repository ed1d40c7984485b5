package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.TlsTable;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;

/**
 * Picks the certificate of each handshake from the server name the client sent (SNI), on the event loop running the
 * handshake: both engines call {@link #chooseEngineServerAlias} there, so there is no hop to a worker thread (which
 * Vert.x's own SNI support makes on every full handshake). Reads the listener's current immutable {@link TlsTable} (a volatile read): no locks.
 */
final class SniKeyManager extends X509ExtendedKeyManager {

    private final PresentedCertificates presented;

    SniKeyManager(PresentedCertificates presented) {
        this.presented = presented;
    }

    /** The certificates this key manager presents, now and after each swap. */
    PresentedCertificates presented() {
        return presented;
    }

    /**
     * Called once per key type the client accepts (BoringSSL: EC, then RSA; the JDK adds EdDSA and RSASSA-PSS):
     * answering null for a type the certificate's key is not lets the engine try the next one.
     */
    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        TlsTable table = presented.current();
        TlsTable.Entry entry = table.select(requestedServerName(engine.getHandshakeSession()));
        if (entry == null || !entry.privateKey().getAlgorithm().equals(keyType)) {
            return null;
        }
        staple(table, entry, engine);
        return entry.alias();
    }

    /**
     * Hands BoringSSL the certificate's OCSP response, when there is one: set here, once the certificate is known
     * and before the server's reply is written, so each name gets the response about its own certificate. The JDK's
     * engine takes no response from outside (it only fetches its own), so it staples nothing.
     */
    private static void staple(TlsTable table, TlsTable.Entry entry, SSLEngine engine) {
        if (engine instanceof ReferenceCountedOpenSslEngine) {
            byte[] response = table.staples().forAlias(entry.alias());
            if (response != null) {
                ((ReferenceCountedOpenSslEngine) engine).setOcspResponse(response);
            }
        }
    }

    /** The host name the client asked for, or null when it sent none. */
    static String requestedServerName(SSLSession session) {
        if (!(session instanceof ExtendedSSLSession)) {
            return null;
        }
        List<SNIServerName> names = ((ExtendedSSLSession) session).getRequestedServerNames();
        for (SNIServerName name : names) {
            if (name instanceof SNIHostName) {
                return ((SNIHostName) name).getAsciiName().toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        TlsTable.Entry entry = presented.byAlias(alias);
        return entry == null ? null : entry.chain();
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        TlsTable.Entry entry = presented.byAlias(alias);
        return entry == null ? null : entry.privateKey();
    }

    /** Sockets are never used: Netty drives engines. A socket-bound caller gets no certificate. */
    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;
    }

    /** A server listener presents no client certificate. */
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
