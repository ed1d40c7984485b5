package dev.portico.control.acme;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Automatic certificates from an ACME directory (RFC 8555). Settings under {@code portico.acme.*}. */
@ConfigMapping(prefix = "portico.acme")
public interface AcmeSettings {

    /** Let's Encrypt production; staging is {@code https://acme-staging-v02.api.letsencrypt.org/directory}. */
    String LETS_ENCRYPT = "https://acme-v02.api.letsencrypt.org/directory";

    /** Whether vhosts asking for {@code "tls": {"acme": true}} get certificates ordered for them. */
    @WithDefault("true")
    boolean enabled();

    /** The ACME directory URL of the CA. */
    @WithDefault(LETS_ENCRYPT)
    String directoryUrl();

    /** The account's contact e-mail, where the CA sends expiry and policy notices. */
    Optional<String> email();

    /** External Account Binding key id, for CAs that require one (ZeroSSL, Google, most private CAs). */
    Optional<String> eabKid();

    /** External Account Binding MAC key, base64url as the CA hands it out; used only with {@link #eabKid()}. */
    Optional<String> eabHmacKey();

    /**
     * PEM certificates to trust for the directory's HTTPS, instead of the JDK's trust store: for a private CA or a
     * test server such as Pebble.
     */
    Optional<Path> caBundle();

    /**
     * How far into a certificate's lifetime it is renewed when the CA offers no renewal information (ARI): 2/3, as
     * Let's Encrypt and Caddy do, leaves a third of the lifetime (30 days of 90) to retry a failing renewal.
     */
    @WithDefault("0.6667")
    double renewAtFraction();

    /**
     * How long the renewer lease lasts without being renewed: when the replica holding it dies, another takes over
     * after this long. The holder renews it every third of this.
     */
    @WithDefault("60s")
    Duration leaseTtl();

    /**
     * How often each replica looks for due certificates (and the holder renews its lease): a new ACME vhost gets
     * its first order within this. At most a third of {@link #leaseTtl()}.
     */
    @WithDefault("15s")
    Duration checkInterval();
}
