package dev.portico.proxy.server.tls;

import dev.portico.proxy.route.SessionTicketKeys;
import dev.portico.proxy.route.TlsTable;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.DelegatingSslContext;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.vertx.core.spi.tls.SslContextFactory;
import org.jboss.logging.Logger;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the listener's Netty {@link SslContext} from what Vert.x hands over (the key manager factory wrapping
 * {@link SniKeyManager}); the cipher suites Vert.x passes are its defaults, not Portico's, and are ignored. The ALPN
 * protocols it passes are the listener's ({@code HttpServerOptions.alpnVersions}, set from the listener's protocols),
 * in preference order. Vert.x calls {@link #create} once per listener, when it binds, and after an update of its TLS options.
 * Session ticket keys come with the certificates' table ({@link TlsTable#ticketKeys}); only BoringSSL can be given
 * them: the JDK's engine keeps its own per-process keys, which it offers no API to set.
 */
final class PorticoSslContextFactory implements SslContextFactory {

    private static final Logger LOG = Logger.getLogger(PorticoSslContextFactory.class);

    private final SslProvider provider;
    private final CipherProfile profile;
    private KeyManagerFactory keyManagers;
    private List<String> applicationProtocols = List.of(ApplicationProtocolNames.HTTP_1_1);

    PorticoSslContextFactory(SslProvider provider, CipherProfile profile) {
        this.provider = provider;
        this.profile = profile;
    }

    @Override
    public SslContextFactory keyMananagerFactory(KeyManagerFactory factory) {
        this.keyManagers = factory;
        return this;
    }

    @Override
    public SslContextFactory applicationProtocols(List<String> protocols) {
        if (protocols != null && !protocols.isEmpty()) {
            this.applicationProtocols = List.copyOf(protocols);
        }
        return this;
    }

    @Override
    public SslContext create() throws SSLException {
        if (keyManagers == null) {
            throw new SSLException("No key manager: the TLS listener was configured without certificates");
        }
        // Without the caching factory BoringSSL re-encodes the chain and key on every handshake. It caches by
        // alias, which is why a changed certificate comes with a new alias (TlsTable.Entry).
        KeyManagerFactory factory = provider == SslProvider.OPENSSL
                ? new OpenSslCachingX509KeyManagerFactory(keyManagers) : keyManagers;
        SslContext context = SslContextBuilder.forServer(factory)
                .sslProvider(provider)
                // Lets a certificate's OCSP response be stapled (SniKeyManager sets it per handshake); BoringSSL only.
                .enableOcsp(provider == SslProvider.OPENSSL)
                .protocols(profile.protocols().toArray(new String[0]))
                .ciphers(profile.cipherSuites())
                // The listener's protocols, h2 first when it serves HTTP/2 (RFC 7301: the server picks by its own
                // preference); a client offering nothing Portico speaks still connects (NO_ADVERTISE / ACCEPT) and
                // is read as HTTP/1.1.
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        applicationProtocols))
                .build();
        PresentedCertificates presented = certificatesOf(keyManagers);
        presented.followTicketKeys(table -> applyTicketKeys(context, table.ticketKeys()));
        return new EngineSettings(context, new UnknownServerNameRefusal(presented), provider == SslProvider.OPENSSL);
    }

    private void applyTicketKeys(SslContext context, SessionTicketKeys keys) {
        if (keys.isEmpty()) {
            LOG.debug("No shared session ticket keys: the TLS engine's own per-process keys encrypt tickets");
            return;
        }
        if (provider != SslProvider.OPENSSL) {
            LOG.infof("Shared session ticket keys (periods %s) not applied: the JDK engine has no API for them, so "
                    + "sessions resume only on this process", keys.periods());
            return;
        }
        OpenSslSessionTicketKey[] ticketKeys = new OpenSslSessionTicketKey[keys.size()];
        for (int i = 0; i < ticketKeys.length; i++) {
            byte[] key = keys.key(i);
            ticketKeys[i] = new OpenSslSessionTicketKey(
                    Arrays.copyOfRange(key, 0, OpenSslSessionTicketKey.NAME_SIZE),
                    Arrays.copyOfRange(key, OpenSslSessionTicketKey.NAME_SIZE,
                            OpenSslSessionTicketKey.NAME_SIZE + OpenSslSessionTicketKey.HMAC_KEY_SIZE),
                    Arrays.copyOfRange(key, OpenSslSessionTicketKey.NAME_SIZE + OpenSslSessionTicketKey.HMAC_KEY_SIZE,
                            OpenSslSessionTicketKey.TICKET_KEY_SIZE));
        }
        // netty-tcnative encrypts with the first key and decrypts with any whose name a ticket carries (renewing
        // such a ticket under the first key), which is the order SessionTicketKeys keeps.
        ((OpenSslSessionContext) context.sessionContext()).setTicketKeys(ticketKeys);
        LOG.debugf("Session ticket keys of periods %s applied (the first encrypts)", keys.periods());
    }

    /**
     * The certificates the key manager Vert.x hands over presents: {@code KeyCertOptions.wrap} passes our
     * {@link SniKeyManager} through as the factory's only key manager. The refusal of unknown names and the ticket
     * keys follow the same certificates as they are swapped.
     */
    private static PresentedCertificates certificatesOf(KeyManagerFactory factory) throws SSLException {
        for (KeyManager manager : factory.getKeyManagers()) {
            if (manager instanceof SniKeyManager) {
                return ((SniKeyManager) manager).presented();
            }
        }
        throw new SSLException("The TLS listener was configured with a key manager other than Portico's");
    }

    /**
     * Sets what the context builder cannot on each engine: the server's cipher order for TLS 1.2 (Mozilla's
     * guidelines leave the choice to the client only when every suite is strong; ours are, but a server preference
     * keeps the choice the same on both engines), and the refusal of unknown server names.
     * <p>
     * For BoringSSL the parameters are a fresh object holding only those two: {@code getSSLParameters()} on Netty's
     * OpenSSL engine converts every enabled suite to its Java name and {@code setSSLParameters} of a copy sets suites
     * and protocols natively again: 4.4% of the Java samples of a resumed TLS 1.2 connection (README, TLS). A fresh
     * object's suites and protocols are null, which {@code SSLEngine.setSSLParameters} leaves as they are. The JDK's
     * engine also takes ALPN and more from the parameters, so it gets its own, modified.
     */
    private static final class EngineSettings extends DelegatingSslContext {

        private final UnknownServerNameRefusal refusal;
        private final boolean openSsl;

        EngineSettings(SslContext context, UnknownServerNameRefusal refusal, boolean openSsl) {
            super(context);
            this.refusal = refusal;
            this.openSsl = openSsl;
        }

        @Override
        protected void initEngine(SSLEngine engine) {
            SSLParameters parameters = openSsl ? new SSLParameters() : engine.getSSLParameters();
            parameters.setUseCipherSuitesOrder(true);
            if (refusal != null) {
                parameters.setSNIMatchers(List.of(refusal));
            }
            engine.setSSLParameters(parameters);
        }
    }

}
