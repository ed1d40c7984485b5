package dev.portico.proxy.upstream.pool;

import dev.portico.proxy.upstream.balance.UpstreamTls.ClientCertificate;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * Presents one client certificate to every upstream of a pool that asks for one, like nginx's
 * {@code proxy_ssl_certificate}: the certificate is sent whatever CA names the origin lists in its request (an origin
 * that does not trust it refuses it, and the failure is the origin's clear answer, not a silent "no certificate").
 * Only the key type must fit what the handshake offers, or the certificate could not sign it. An
 * {@link X509ExtendedKeyManager}, because the JDK's TLS engine ignores the client choice of a plain
 * {@code X509KeyManager}.
 */
final class ClientCertificateKeyManager extends X509ExtendedKeyManager {

    private final ClientCertificate certificate;
    private final X509Certificate[] chain;

    ClientCertificateKeyManager(ClientCertificate certificate) {
        this.certificate = certificate;
        this.chain = certificate.chain();
    }

    @Override
    public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
        return choose(keyTypes);
    }

    @Override
    public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
        return choose(keyTypes);
    }

    private String choose(String[] keyTypes) {
        String algorithm = certificate.privateKey().getAlgorithm();
        if (keyTypes == null) {
            return null;
        }
        for (String keyType : keyTypes) {
            if (keyType.equals(algorithm)) {
                return certificate.alias();
            }
        }
        return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return certificate.alias().equals(alias) ? chain.clone() : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return certificate.alias().equals(alias) ? certificate.privateKey() : null;
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return keyType.equals(certificate.privateKey().getAlgorithm()) ? new String[] {certificate.alias()} : null;
    }

    /** A client-side manager: never asked for a server certificate. */
    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }
}
