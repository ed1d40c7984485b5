package dev.portico.control.acme;

import org.shredzone.acme4j.Session;
import org.shredzone.acme4j.provider.GenericAcmeProvider;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The CA Portico orders from, and as whom: the directory URL, the trust for its HTTPS, the account's contact e-mail
 * and External Account Binding.
 *
 * @param url   the ACME directory URL
 * @param trust what to trust for the directory's HTTPS; empty for the JDK's trust store
 * @param email the account's contact address, if any
 * @param binding External Account Binding, for CAs that require it
 */
public record AcmeDirectory(String url, Optional<SSLContext> trust, Optional<String> email,
                            Optional<ExternalAccountBinding> binding) {

    /**
     * A key id and MAC key the CA issued out of band, binding the ACME account to an account at the CA (RFC 8555
     * section 7.3.4).
     *
     * @param keyId  the key id
     * @param macKey the MAC key, base64url as the CA hands it out
     */
    public record ExternalAccountBinding(String keyId, String macKey) {
        @Override
        public String toString() {
            return "ExternalAccountBinding[keyId=" + keyId + "]";
        }
    }

    /** The directory the settings name ({@code portico.acme.*}). */
    public static AcmeDirectory from(AcmeSettings settings) {
        Optional<ExternalAccountBinding> binding = settings.eabKid().filter(kid -> !kid.isBlank()).map(kid ->
                new ExternalAccountBinding(kid, settings.eabHmacKey().filter(key -> !key.isBlank())
                        .orElseThrow(() -> new IllegalArgumentException(
                                "portico.acme.eab-kid is set but portico.acme.eab-hmac-key is not"))));
        return new AcmeDirectory(settings.directoryUrl(), settings.caBundle().map(TrustedAcmeProvider::trusting),
                settings.email().filter(email -> !email.isBlank()), binding);
    }

    /** What to trust for a directory whose HTTPS certificate is issued by the CA certificates in PEM {@code bundle}. */
    public static SSLContext trusting(Path bundle) {
        return TrustedAcmeProvider.trusting(bundle);
    }

    /** A new acme4j session with the directory (it fetches the directory lazily, on first use). */
    public Session session() {
        URI uri = URI.create(url);
        return new Session(uri, trust.<GenericAcmeProvider>map(TrustedAcmeProvider::new)
                .orElseGet(GenericAcmeProvider::new));
    }
}
