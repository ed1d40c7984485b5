package dev.portico.control.acme;

import org.shredzone.acme4j.connector.HttpConnector;
import org.shredzone.acme4j.connector.NetworkSettings;
import org.shredzone.acme4j.provider.GenericAcmeProvider;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;

/**
 * acme4j's provider for any {@code https://} directory, talking to it with a client that trusts only the
 * certificates of a PEM bundle: for a private CA or a test server whose HTTPS certificate the JDK does not trust.
 * (acme4j's own {@code acme://pebble} provider trusts only the certificate bundled with upstream Pebble, which the
 * Debian package does not use.)
 */
final class TrustedAcmeProvider extends GenericAcmeProvider {

    private final SSLContext trust;

    TrustedAcmeProvider(SSLContext trust) {
        this.trust = trust;
    }

    /** An SSL context trusting every certificate in the PEM file {@code bundle}. */
    static SSLContext trusting(Path bundle) {
        try (InputStream in = Files.newInputStream(bundle)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int index = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("ca-" + index++, certificate);
            }
            if (index == 0) {
                throw new IllegalArgumentException("portico.acme.ca-bundle " + bundle + " holds no PEM certificate");
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read portico.acme.ca-bundle " + bundle, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("portico.acme.ca-bundle " + bundle + " is not a PEM certificate bundle: "
                    + e.getMessage(), e);
        }
    }

    @Override
    protected HttpConnector createHttpConnector(NetworkSettings settings) {
        return new HttpConnector(settings) {
            @Override
            public HttpClient.Builder createClientBuilder() {
                return super.createClientBuilder().sslContext(trust);
            }
        };
    }
}
