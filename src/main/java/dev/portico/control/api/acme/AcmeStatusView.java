package dev.portico.control.api.acme;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.UUID;

/** Where a vhost's automatic certificate stands: every attempt explained. */
@Schema(name = "AcmeStatus")
public record AcmeStatusView(
        @Schema(description = "pending (no certificate yet), valid, renewing (a renewal is running; the current "
                + "certificate is served), failed (see lastError; retried at nextAttemptAt)")
        String state,
        @Schema(description = "The last failure in the CA's words (problem type and detail), null after a success")
        String lastError,
        @Schema(description = "When the next order is made: the renewal time, or the retry after a failure; null "
                + "until the renewer has seen the vhost (within portico.acme.check-interval)")
        Instant nextAttemptAt,
        @Schema(description = "Failed attempts in a row") int attempts,
        @Schema(description = "The certificate issued and served, if any (GET /api/v1/certificates/{id})")
        UUID certificateId,
        @Schema(description = "The replica that orders and renews (holds the renewer lease), if any")
        String renewer) {
}
