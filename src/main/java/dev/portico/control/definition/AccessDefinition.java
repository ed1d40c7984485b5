package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** IP rules on the client address, as clients write them (a vhost's now; a route can carry the same block). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Access", description = "IP rules on the client address (the TCP peer, or behind a trusted proxy the "
        + "right-most X-Forwarded-For entry that is not one): deny wins; then, if allow is not empty, only the "
        + "addresses it names pass. A refused client gets 403 access_denied before the cache, the static files or "
        + "the upstreams see the request. IPv4 rules match IPv4-mapped IPv6 clients too")
public record AccessDefinition(
        @Schema(description = "Blocks allowed, e.g. 10.0.0.0/8, 2001:db8::/32 or a bare address (/32, /128); at "
                + "most 1000. Empty or left out: everyone not denied", example = "[\"10.0.0.0/8\", \"192.0.2.7\"]")
        List<String> allow,
        @Schema(description = "Blocks refused even when allow names them; at most 1000",
                example = "[\"10.9.0.0/16\"]")
        List<String> deny) {
}
