package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** Forward auth as clients write it: the auth service a vhost's (or route's) requests are first put to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "ForwardAuth", description = "Every request is first put to an auth service as a GET without body, "
        + "with X-Forwarded-Method, X-Forwarded-Uri, X-Forwarded-Host, X-Forwarded-Proto and X-Forwarded-For and "
        + "the client fields in requestHeaders. 2xx: the request goes on with copyHeaders taken from the answer. "
        + "401, 403 or a redirect (301, 302, 303, 307, 308): that answer goes to the client (forward_auth_denied). "
        + "Anything else, or no answer: 502 forward_auth_error; no answer within timeout: 504 forward_auth_timeout")
public record ForwardAuthDefinition(
        @Schema(description = "The auth service: an absolute http or https URL", required = true,
                example = "http://auth.internal:9091/check")
        String url,
        @Schema(description = "Fields of the auth service's 2xx answer copied onto the upstream request; the "
                + "client's own fields of these names are always removed. At most 32", example = "[\"X-User\"]")
        List<String> copyHeaders,
        @Schema(description = "Fields of the client's request sent to the auth service. At most 32",
                defaultValue = "[\"Authorization\", \"Cookie\"]")
        List<String> requestHeaders,
        @Schema(description = "The longest the auth call may take, connecting included (at most 1m)",
                defaultValue = "2s")
        String timeout,
        @Schema(description = "How long a 2xx decision is reused for an identical auth request (same fields sent); "
                + "0s is never (at most 5m)", defaultValue = "0s", example = "30s")
        String cacheFor) {
}
