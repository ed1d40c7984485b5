package dev.portico.control.definition;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/** A bearer-token (JWT) check as clients write it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Jwt", description = "Requests must carry Authorization: Bearer <JWT> signed by a key of jwksUrl or "
        + "by key, unexpired (exp is required), valid (nbf), from issuer and for audience. None: 401 auth_required; "
        + "a bad one: 401 auth_failed with error=\"invalid_token\"; no key set fetched yet: 503 jwks_unavailable")
public record JwtDefinition(
        @Schema(description = "The JSON Web Key Set's http(s) URL; not with key",
                example = "https://login.example.com/.well-known/jwks.json")
        String jwksUrl,
        @Schema(description = "A PEM public key (RSA, EC, Ed25519), or an HMAC secret in base64 (at least 32 bytes); "
                + "not with jwksUrl. A secret is stored and shown as given: prefer a key set or a public key")
        String key,
        @Schema(description = "The iss the token must have; any when left out", example = "https://login.example.com")
        String issuer,
        @Schema(description = "The token's aud must name one of these; no check when left out or empty")
        List<String> audience,
        @Schema(description = "JWS algorithms accepted; none is never. Default: RS256-512, PS256-512, ES256-512, "
                + "EdDSA; HS256-512 for a secret key (and only then)")
        List<String> algorithms,
        @Schema(description = "How far exp and nbf may be off (at most 5m)", defaultValue = "30s")
        String clockSkew,
        @Schema(description = "Claims sent upstream, claim name to header name; the client's own copies of these "
                + "headers are always removed", example = "{\"sub\": \"X-User-Id\"}")
        Map<String, String> claimHeaders,
        @Schema(description = "Whether the Authorization header goes upstream", defaultValue = "false")
        Boolean forwardToken,
        @Schema(description = "How often the key set is fetched again while requests come (at least 1s, at most "
                + "1d); a token with an unknown kid fetches it at once, at most every 30s", defaultValue = "5m")
        String jwksRefresh) {
}
