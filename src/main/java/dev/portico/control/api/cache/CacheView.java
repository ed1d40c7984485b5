package dev.portico.control.api.cache;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.UUID;

/** A vhost's response cache: what it holds and how well it serves. */
@Schema(name = "CacheView")
public record CacheView(
        UUID id,
        String vhost,
        @Schema(description = "Whether the vhost's cache is enabled") boolean enabled,
        @Schema(description = "URIs stored (each with one or more variants)") long entries,
        @Schema(description = "Bytes charged against the budget: bodies, headers and bookkeeping") long bytes,
        @Schema(description = "Response body bytes stored") long bodyBytes,
        @Schema(description = "This vhost's effective share of the global budget, in bytes") long maxBytes,
        @Schema(description = "URIs evicted to stay within maxBytes, since the cache was created") long evictions,
        @Schema(description = "Requests answered from a fresh stored response, since start") long hits,
        @Schema(description = "Requests answered from a stale stored response") long stale,
        @Schema(description = "Requests answered from a stored response the origin confirmed (304)") long revalidated,
        @Schema(description = "Requests answered from another request's fetch of the same response") long collapsed,
        @Schema(description = "Requests that had to fetch from the origin") long misses,
        @Schema(description = "Requests the cache did not apply to (unsafe methods, no-store, ranges on a miss)")
        long bypassed,
        @Schema(description = "(hits + stale + revalidated + collapsed) / (those + misses); 0 without traffic")
        double hitRatio) {
}
