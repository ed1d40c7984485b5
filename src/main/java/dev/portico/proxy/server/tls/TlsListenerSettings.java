package dev.portico.proxy.server.tls;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * How the TLS listener terminates TLS. Settings under {@code portico.tls.*}; the listener's port is
 * {@code portico.dataplane.tls-port}.
 */
@ConfigMapping(prefix = "portico.tls")
public interface TlsListenerSettings {

    /** {@code auto} (BoringSSL where it loads, else the JDK), {@code openssl} or {@code jdk}. */
    @WithDefault("auto")
    TlsEngine engine();

    /** {@code intermediate} (TLS 1.2 and 1.3) or {@code modern} (TLS 1.3 only), after Mozilla's guidelines. */
    @WithDefault("intermediate")
    CipherProfile profile();

    /** Longest a client may take to complete its handshake before its connection is closed. */
    @WithDefault("10s")
    Duration handshakeTimeout();

    /**
     * Id of the stored certificate presented to clients that send no server name (SNI) or a name no vhost's
     * certificate covers. Unset: such handshakes are refused with the {@code unrecognized_name} alert, so no client
     * is shown a certificate for a name it did not ask for.
     */
    Optional<String> defaultCertificate();

    /**
     * How long one session ticket key encrypts new tickets. Every replica switches at the same multiples of it on
     * its own clock ({@code floor(epoch seconds / rotation)}); a ticket stays resumable for one more period under the
     * previous key, so it lives between one and two periods.
     */
    @WithDefault("12h")
    Duration ticketKeyRotation();

    /**
     * Staple each certificate's OCSP response (fetched from the responder its CA names, refreshed at half its
     * validity) in handshakes, with BoringSSL; the JDK's engine staples nothing. Read by the control plane.
     */
    @WithDefault("true")
    boolean ocspStapling();
}
