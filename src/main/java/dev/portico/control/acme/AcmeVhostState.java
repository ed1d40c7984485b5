package dev.portico.control.acme;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Where one ACME vhost stands ({@code acme_certificate_state}): what an operator sees to know why a site has no
 * certificate yet, and when the next attempt comes.
 *
 * @param vhostId       the vhost
 * @param state         see {@link State}
 * @param lastError     the last failure in the CA's words ({@link AcmeFailure#getMessage()}), if the last attempt
 *                      failed
 * @param nextAttemptAt when the renewer orders next (renewal time when valid, backoff when failed)
 * @param attempts      failed attempts in a row, the backoff's exponent; 0 after a success
 * @param certificateId the certificate currently issued, if any
 */
public record AcmeVhostState(UUID vhostId, State state, Optional<String> lastError, Instant nextAttemptAt,
                             int attempts, Optional<UUID> certificateId) {

    /** The life of an automatic certificate. */
    public enum State {
        /** No certificate yet; the first order is due or running. */
        PENDING,
        /** A certificate is issued and not due for renewal. */
        VALID,
        /** A certificate is issued and its renewal is due or running; the current one is still served. */
        RENEWING,
        /** The last attempt failed ({@code lastError}); the next is at {@code nextAttemptAt}. */
        FAILED;

        String column() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static State ofColumn(String value) {
            return valueOf(value.toUpperCase(java.util.Locale.ROOT));
        }
    }
}
