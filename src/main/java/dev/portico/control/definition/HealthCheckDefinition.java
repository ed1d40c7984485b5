package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** A vhost's active health check of its upstreams, as clients write it; null (left out) for none. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "HealthCheck", description = "Active health check of every upstream of the vhost, off the request "
        + "path. A new upstream gets no traffic until its first check passes; then fall failures in a row take it "
        + "out and rise passes in a row bring it back")
public record HealthCheckDefinition(
        @Schema(description = "http: a request whose status (and body) must match; tcp: a connect",
                defaultValue = "http", enumeration = {"http", "tcp"})
        String type,
        @Schema(description = "Request target of an http check, sent as it is (the upstream's base path is not "
                + "prepended)", defaultValue = "/", example = "/healthz")
        String path,
        @Schema(description = "GET or HEAD", defaultValue = "GET", enumeration = {"GET", "HEAD"})
        String method,
        @Schema(description = "Statuses that pass: codes (200), ranges (200-399) or classes (2xx)",
                defaultValue = "[\"200-399\"]", example = "[\"200\", \"204\"]")
        List<String> expectStatus,
        @Schema(description = "Text the body must contain (searched in its first 64 KiB); null for any body",
                example = "ok")
        String expectBody,
        @Schema(description = "Host header of an http check; null for the upstream's own host:port",
                example = "health.internal")
        String host,
        @Schema(description = "Time between two checks of one upstream, 100ms to 1h", defaultValue = "5s")
        String interval,
        @Schema(description = "A check not passed within this fails, connect included (at most 1h)",
                defaultValue = "2s")
        String timeout,
        @Schema(description = "Passes in a row that bring an unhealthy upstream back, 1-100", defaultValue = "2")
        Integer rise,
        @Schema(description = "Failures in a row that take a healthy upstream out, 1-100", defaultValue = "3")
        Integer fall,
        @Schema(description = "Each wait between checks is lengthened by a random part of this, so the checks of "
                + "many vhosts drift apart; at most the interval. Default: a tenth of the interval",
                example = "500ms")
        String jitter) {
}
