package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** HTTP Basic authentication of a vhost or a route, as clients write it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "BasicAuth", description = "HTTP Basic authentication (RFC 7617): a request without credentials gets "
        + "401 auth_required, one with wrong credentials 401 auth_failed, both with WWW-Authenticate. Passwords are "
        + "checked on a small worker pool and a good credential is remembered for 60 s (by an HMAC, never the "
        + "password); when the pool's queue is full the request gets 503 auth_busy")
public record BasicAuthDefinition(
        @Schema(description = "The realm shown by browsers: printable ASCII without \" or \\, at most 100",
                defaultValue = "restricted", example = "staff")
        String realm,
        @Schema(description = "Who may pass: 1 to " + BasicAuthSettingsCheck.MAX_USERS + " users with unique names",
                required = true)
        List<UserDefinition> users,
        @Schema(description = "Send the Authorization header on to the upstream (off: it is removed once checked)",
                defaultValue = "false")
        Boolean forwardAuthorization) {

    /** One user: a plain password (hashed with bcrypt when stored, never kept) or a hash. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "BasicAuthUser")
    public record UserDefinition(
            @Schema(description = "1-128 characters, no ':' or control characters", required = true,
                    example = "ann")
            String name,
            @Schema(description = "A plain password (at most 72 bytes in UTF-8): Portico stores only its bcrypt "
                    + "hash (cost 10) and never shows it back. Give this or hash", writeOnly = true)
            String password,
            @Schema(description = "A bcrypt hash ($2a$, $2b$, $2y$; cost 4 to 14, e.g. from htpasswd -B) or an "
                    + "argon2id hash in PHC form ($argon2id$v=19$m=..,t=..,p=..$salt$hash; m at most 65536 KiB, "
                    + "t at most 10, p at most 8)", example = "$2y$10$zq4YSqGd0Hg1lX2F4IaXtOm8s0YpHxkOgHcrlTXaiyN2QHWYsXzVa")
            String hash) {
    }
}
