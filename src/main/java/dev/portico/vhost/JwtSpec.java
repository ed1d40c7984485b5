package dev.portico.vhost;

import java.security.Key;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A vhost's or route's bearer-token check (RFC 6750): a JWT signed by a key from {@code jwksUrl} or by
 * {@code key}, within its validity (with {@code clockSkew}), from {@code issuer} and for one of {@code audience}.
 *
 * @param jwksUrl the JSON Web Key Set's absolute URL, or null when {@code key} is given
 * @param key the one verification key (a public key, or an HMAC secret), or null when {@code jwksUrl} is given
 * @param issuer the {@code iss} required, or null for any
 * @param audience the {@code aud} values of which the token must name one; empty for no check
 * @param algorithms the JWS algorithms accepted ({@code none} never is)
 * @param clockSkew how far {@code exp} and {@code nbf} may be off
 * @param claimHeaders claim name to the upstream request field it is sent in (the client's copies removed)
 * @param forwardToken whether the {@code Authorization} header goes upstream
 * @param jwksRefresh how often the key set is fetched again, or null without {@code jwksUrl}
 */
public record JwtSpec(String jwksUrl, Key key, String issuer, List<String> audience, List<String> algorithms,
                      Duration clockSkew, Map<String, String> claimHeaders, boolean forwardToken,
                      Duration jwksRefresh) {

    public JwtSpec {
        audience = List.copyOf(audience);
        algorithms = List.copyOf(algorithms);
        claimHeaders = Map.copyOf(claimHeaders);
    }
}
