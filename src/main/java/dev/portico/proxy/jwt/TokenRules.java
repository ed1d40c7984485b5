package dev.portico.proxy.jwt;

import dev.portico.vhost.JwtSpec;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.HmacKey;
import org.jose4j.keys.resolvers.VerificationKeyResolver;
import org.jose4j.lang.UnresolvableKeyException;

import javax.crypto.SecretKey;

/**
 * What a token must satisfy, as jose4j consumers: the algorithms listed (never {@code none}), a signature by the
 * key, {@code exp} present and not past, {@code nbf} not ahead (both with the skew), the issuer and the audience.
 * Consumers are immutable and shared by every event loop.
 */
final class TokenRules {

    private final JwtSpec spec;

    TokenRules(JwtSpec spec) {
        this.spec = spec;
    }

    /** A consumer verifying with the static key. */
    JwtConsumer withStaticKey() {
        JwtConsumerBuilder builder = builder();
        builder.setVerificationKey(spec.key() instanceof SecretKey secret ? new HmacKey(secret.getEncoded())
                : spec.key());
        return builder.build();
    }

    /** A consumer verifying with a key set's keys. */
    JwtConsumer withKeys(VerificationKeyResolver resolver) {
        return builder().setVerificationKeyResolver(resolver).build();
    }

    private JwtConsumerBuilder builder() {
        JwtConsumerBuilder builder = new JwtConsumerBuilder()
                .setRequireExpirationTime()
                .setAllowedClockSkewInSeconds((int) spec.clockSkew().toSeconds())
                .setJwsAlgorithmConstraints(new AlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                        spec.algorithms().toArray(new String[0])));
        if (spec.issuer() != null) {
            builder.setExpectedIssuer(spec.issuer());
        }
        if (spec.audience().isEmpty()) {
            builder.setSkipDefaultAudienceValidation();
        } else {
            builder.setExpectedAudience(spec.audience().toArray(new String[0]));
        }
        return builder;
    }

    /**
     * Whether the token, with an algorithm accepted here, named a key the set lacks: worth fetching the set again.
     * (jose4j looks the key up before it checks the algorithm, so a token with {@code alg: none} or another refused
     * algorithm also finds no key; it must not cause a fetch.)
     */
    boolean unknownKey(InvalidJwtException e) {
        return algorithmAccepted(e) && keyUnresolved(e);
    }

    private boolean algorithmAccepted(InvalidJwtException e) {
        try {
            String alg = e.getJwtContext().getJoseObjects().get(0).getAlgorithmHeaderValue();
            return spec.algorithms().contains(alg);
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    private static boolean keyUnresolved(InvalidJwtException e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof UnresolvableKeyException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a token was refused, for {@code error_description} and the problem's detail: the kind of failure only,
     * never the token or its claims (jose4j's own messages quote them).
     */
    String why(InvalidJwtException e) {
        if (!algorithmAccepted(e)) {
            return "The token's algorithm is not accepted";
        }
        if (e.hasExpired()) {
            return "The token has expired";
        }
        if (e.hasErrorCode(ErrorCodes.NOT_YET_VALID)) {
            return "The token is not valid yet";
        }
        if (e.hasErrorCode(ErrorCodes.ISSUER_INVALID) || e.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
            return "The token is from another issuer";
        }
        if (e.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || e.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
            return "The token is for another audience";
        }
        if (e.hasErrorCode(ErrorCodes.EXPIRATION_MISSING)) {
            return "The token has no expiry";
        }
        if (e.hasErrorCode(ErrorCodes.SIGNATURE_INVALID)) {
            return "The token's signature is not valid";
        }
        if (unknownKey(e)) {
            return "The token is signed by an unknown key";
        }
        return "The token is not valid";
    }
}
