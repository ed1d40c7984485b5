package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A rate limit of a vhost or a route, as clients write it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "RateLimit", description = "A token bucket per key (GCRA): burst requests at once, refilled at "
        + "requestsPerSecond. A request over it gets 429 rate_limited with Retry-After and the RateLimit-Policy and "
        + "RateLimit headers (draft-ietf-httpapi-ratelimit-headers-08). Counted per Portico instance")
public record RateLimitDefinition(
        @Schema(description = "The sustained rate: more than 0, at most 1000000; fractions allowed (0.5 is one "
                + "request every 2 s)", required = true, example = "5")
        Double requestsPerSecond,
        @Schema(description = "How many requests may come at once after a quiet spell: 1 to 1000000; default the "
                + "rate rounded up", example = "10")
        Integer burst,
        @Schema(description = "What a bucket belongs to: client (the client address, as the IP rules see it), "
                + "header:<Name> (a request without it counts by its client), claim:<name> (a claim an "
                + "authentication stage verified, e.g. claim:user for the basic-auth user; none: by client), or "
                + "route (one bucket for all requests of the vhost or route)", defaultValue = "client",
                example = "header:X-Api-Key")
        String key) {
}
