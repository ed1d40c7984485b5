package dev.portico.management.cache;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What a purge removed. */
@Schema(name = "PurgeResult")
public record PurgeResult(
        @Schema(description = "URIs removed from this instance, with all their variants") int purged,
        @Schema(description = "Whether the purge was sent to the other replicas sharing the database; false when "
                + "PostgreSQL could not be reached (this instance is purged either way)") boolean replicasNotified) {
}
