package dev.portico.management.cache;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What a purge removed. */
@Schema(name = "PurgeResult")
public record PurgeResult(@Schema(description = "URIs removed, with all their variants") int purged) {
}
