package dev.portico.control.api.cache;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What a purge removed. */
@Schema(name = "PurgeResult")
public record PurgeResult(
        @Schema(description = "URIs removed from this instance, with all their variants") int purged,
        @Schema(description = "Whether the purge was sent to the other replicas sharing the database (a committed "
                + "NOTIFY); false when PostgreSQL could not be reached. This instance is purged either way; a "
                + "replica that is not listening at that moment never gets it") boolean replicasNotified) {
}
