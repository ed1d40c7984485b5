package dev.portico.proxy.jwt;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.VerifiedClaims;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.JwtSpec;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import org.jose4j.json.internal.json_simple.JSONValue;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A vhost's or route's {@code jwt}: the request must carry {@code Authorization: Bearer <JWT>} (RFC 6750) that
 * {@link TokenRules} accept. None: 401 {@code auth_required}; a bad one: 401 {@code auth_failed} with
 * {@code error="invalid_token"}; with a JWKS URL whose set never loaded: 503 {@code jwks_unavailable} (the token may
 * be good, so no 401 that would send a client to log in again). A verified token's claims go to
 * {@link VerifiedClaims} for the stages inside (a rate limit by claim) and the chosen ones upstream as headers, whose
 * client-sent copies are always removed. Verifying a signature (tens to a couple of hundred microseconds for RS256 and
 * ES256) is done on the event loop, as Envoy's jwt_authn does; only the key set's fetch is asynchronous.
 */
public final class JwtStage implements Stage {

    private static final CharSequence WWW_AUTHENTICATE = HttpHeaders.createOptimized("WWW-Authenticate");

    private final JwtSpec spec;
    private final String challenge;
    private final TokenRules rules;
    /** For a static key; null with a key set. */
    private final JwtConsumer staticConsumer;
    /** For a key set; null with a static key. */
    private final JwksKeys keys;
    /** The consumer for the last key set seen: rebuilt when the set changes (a benign race between loops). */
    private volatile KeyedConsumer lastConsumer;

    private record KeyedConsumer(JwksKeys.Loaded keys, JwtConsumer consumer) {
    }

    private JwtStage(JwtSpec spec, String realm, JwksKeys keys) {
        this.spec = spec;
        this.challenge = "Bearer realm=\"" + realm.replace("\"", "") + "\"";
        this.rules = new TokenRules(spec);
        this.keys = keys;
        this.staticConsumer = keys == null ? rules.withStaticKey() : null;
    }

    /** No stage without {@code jwt}; a key set is kept across snapshots while its URL and interval stay the same. */
    public static final StageFactory FACTORY = context -> {
        JwtSpec spec = context.spec().jwt();
        if (spec == null) {
            return null;
        }
        JwksKeys keys = spec.jwksUrl() == null ? null : context.runtime().claim(JwksKeys.KEY,
                List.of(spec.jwksUrl(), spec.jwksRefresh()),
                () -> new JwksKeys(spec.jwksUrl(), spec.jwksRefresh().toNanos()));
        return new JwtStage(spec, context.spec().name(), keys);
    };

    @Override
    public Flow onRequest(Exchange exchange) {
        MultiMap headers = exchange.request().headers();
        for (String header : spec.claimHeaders().values()) {
            headers.remove(header);
        }
        String token = bearerToken(headers.getAll(HttpHeaders.AUTHORIZATION));
        if (token == null) {
            exchange.response().headers().set(WWW_AUTHENTICATE, challenge);
            exchange.replyLocal(LocalReason.AUTH_REQUIRED, "The request needs a bearer token");
            return Flow.TAKEN;
        }
        if (keys == null) {
            return verified(exchange, token, staticConsumer, false) ? Flow.NEXT : Flow.TAKEN;
        }
        Vertx vertx = exchange.loop().context().owner();
        JwksKeys.Loaded loaded = keys.current(vertx);
        if (loaded != null) {
            return verified(exchange, token, consumer(loaded), true) ? Flow.NEXT : Flow.TAKEN;
        }
        resumeAfter(exchange, keys.first(vertx), token);
        return Flow.TAKEN;
    }

    /** Goes on once a fetch settles, back on the request's own loop (the fetch may have been another loop's). */
    private void resumeAfter(Exchange exchange, Future<JwksKeys.Loaded> fetch, String token) {
        fetch.onComplete(outcome -> exchange.loop().context().runOnContext(v -> {
            if (exchange.response().closed() || exchange.response().ended()) {
                return;
            }
            JwksKeys.Loaded loaded = outcome.succeeded() ? outcome.result() : keys.loaded();
            if (loaded == null) {
                exchange.replyLocal(LocalReason.JWKS_UNAVAILABLE, "The key set to verify tokens with is not "
                        + "available yet");
            } else if (verified(exchange, token, consumer(loaded), false)) {
                exchange.proceed();
            }
        }));
    }

    private JwtConsumer consumer(JwksKeys.Loaded loaded) {
        KeyedConsumer last = lastConsumer;
        if (last != null && last.keys() == loaded) {
            return last.consumer();
        }
        JwtConsumer consumer = rules.withKeys(loaded.resolver());
        lastConsumer = new KeyedConsumer(loaded, consumer);
        return consumer;
    }

    /**
     * Verifies {@code token}; on success records its claims and edits the upstream request, on failure answers 401,
     * unless its kid is unknown and the set may be fetched again, in which case the request waits for that.
     *
     * @return whether the request may go on now
     */
    private boolean verified(Exchange exchange, String token, JwtConsumer consumer, boolean mayRefetch) {
        JwtClaims claims;
        try {
            claims = consumer.processToClaims(token);
        } catch (InvalidJwtException e) {
            Future<JwksKeys.Loaded> refetch = mayRefetch && rules.unknownKey(e)
                    ? keys.forUnknownKid(exchange.loop().context().owner()) : null;
            if (refetch != null) {
                resumeAfter(exchange, refetch, token);
            } else {
                refuse(exchange, rules.why(e));
            }
            return false;
        }
        Map<String, String> texts = new HashMap<>();
        claims.getClaimsMap().forEach((name, value) -> texts.put(name, text(value)));
        MultiMap headers = exchange.request().headers();
        for (Map.Entry<String, String> sent : spec.claimHeaders().entrySet()) {
            String value = texts.get(sent.getKey());
            if (value == null) {
                continue;
            }
            if (!fitsAHeader(value)) {
                refuse(exchange, "The token's " + sent.getKey() + " claim cannot be sent in a header");
                return false;
            }
            headers.set(sent.getValue(), value);
        }
        exchange.put(VerifiedClaims.SLOT, new VerifiedClaims(texts));
        if (!spec.forwardToken()) {
            headers.remove(HttpHeaders.AUTHORIZATION);
        }
        return true;
    }

    private void refuse(Exchange exchange, String why) {
        exchange.response().headers().set(WWW_AUTHENTICATE,
                challenge + ", error=\"invalid_token\", error_description=\"" + why + "\"");
        exchange.replyLocal(LocalReason.AUTH_FAILED, why);
    }

    /** The token of the one {@code Authorization: Bearer} field (the scheme is case-insensitive); else null. */
    private static String bearerToken(List<String> authorization) {
        if (authorization.size() != 1) {
            return null;
        }
        String value = authorization.get(0).trim();
        if (value.length() < 8 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = value.substring(7).trim();
        return token.isEmpty() ? null : token;
    }

    /** Strings as they are, numbers and booleans in their JSON form, arrays and objects as JSON. */
    private static String text(Object value) {
        return value instanceof String s ? s : value instanceof List<?> || value instanceof Map<?, ?>
                ? JSONValue.toJSONString(value) : String.valueOf(value);
    }

    private static boolean fitsAHeader(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }
}
