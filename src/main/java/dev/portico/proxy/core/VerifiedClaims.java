package dev.portico.proxy.core;

import java.util.Map;

/**
 * What an authentication stage proved about the client of one request (a JWT's claims, the basic-auth user name),
 * for the stages inside it: a rate limit keyed by a claim, the access log's user. Set at most once per request,
 * by the stage that verified the credential; absent when none did.
 *
 * @param claims claim name to value, as text (numbers and booleans in their JSON form)
 */
public record VerifiedClaims(Map<String, String> claims) {

    public static final Slot<Exchange, VerifiedClaims> SLOT = Slot.declare(Exchange.class, "verified claims");

    public VerifiedClaims {
        claims = Map.copyOf(claims);
    }

    /** The value of {@code name}, or null. */
    public String claim(String name) {
        return claims.get(name);
    }
}
