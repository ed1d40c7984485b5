package dev.portico.proxy.basicauth;

import dev.portico.http.auth.PasswordHash;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RuntimeKey;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.VerifiedClaims;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.BasicAuthSpec;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import org.jboss.logging.Logger;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A vhost's or route's {@code basicAuth} (RFC 7617): a request without Basic credentials gets 401
 * {@code auth_required}, one whose credentials do not check out 401 {@code auth_failed}, both with
 * {@code WWW-Authenticate: Basic realm="...", charset="UTF-8"}. A credential seen good within the last minute is
 * let through at the cost of an HMAC ({@link CredentialCache}); any other is checked against its user's hash on
 * {@link PasswordWorkers}, and the request waits off the loop. An unknown user is checked against a decoy hash, so
 * the answer's timing does not tell which users exist (Caddy does the same). The user's name is left in
 * {@link VerifiedClaims} as claim {@code user} for the stages inside (a rate limit per user), and the
 * {@code Authorization} header is removed before the request goes on unless the vhost forwards it.
 */
public final class BasicAuthStage implements Stage {

    /** Good credentials of one pipeline, claimed with its user list: a changed hash or user starts it empty. */
    static final RuntimeKey<CredentialCache> KEY = RuntimeKey.create("basic-auth credentials", CredentialCache.class);

    private static final Logger LOG = Logger.getLogger(BasicAuthStage.class);
    private static final CharSequence WWW_AUTHENTICATE = HttpHeaders.createOptimized("WWW-Authenticate");
    /** Checked for unknown users; matches nothing anyone can send (a random password of cost 10). */
    private static final PasswordHash DECOY = PasswordHash.parse(PasswordHash.bcrypt(
            Long.toHexString(new java.security.SecureRandom().nextLong())));

    private record User(PasswordHash hash, VerifiedClaims claims) {
    }

    private final Map<String, User> users;
    private final CharSequence challenge;
    private final boolean forwardAuthorization;
    private final CredentialCache cache;

    BasicAuthStage(BasicAuthSpec spec, CredentialCache cache) {
        Map<String, User> byName = new HashMap<>();
        for (BasicAuthSpec.User user : spec.users()) {
            byName.put(user.name(), new User(PasswordHash.parse(user.hash()),
                    new VerifiedClaims(Map.of("user", user.name()))));
        }
        this.users = Map.copyOf(byName);
        this.challenge = HttpHeaders.createOptimized("Basic realm=\"" + spec.realm() + "\", charset=\"UTF-8\"");
        this.forwardAuthorization = spec.forwardAuthorization();
        this.cache = cache;
    }

    /** No stage at all for a vhost without basic auth. */
    public static final StageFactory FACTORY = context -> {
        BasicAuthSpec spec = context.spec().basicAuth();
        if (spec == null) {
            return null;
        }
        List<BasicAuthSpec.User> compatibility = spec.users();
        return new BasicAuthStage(spec, context.runtime().claim(KEY, compatibility, CredentialCache::new));
    };

    @Override
    public Flow onRequest(Exchange exchange) {
        BasicCredentials credentials = BasicCredentials.of(exchange.request().getHeader(HttpHeaders.AUTHORIZATION));
        if (credentials == null) {
            return refuse(exchange, LocalReason.AUTH_REQUIRED, "This resource needs a user name and password");
        }
        if (credentials == BasicCredentials.MALFORMED) {
            return refuse(exchange, LocalReason.AUTH_FAILED, "The Basic credentials are malformed");
        }
        ByteBuffer digest = CredentialCache.digest(credentials.bytes());
        String known = cache.verifiedUser(digest, System.nanoTime());
        if (known != null) {
            admit(exchange, users.get(known));
            return Flow.NEXT;
        }
        User user = users.get(credentials.user());
        Future<Boolean> check = PasswordWorkers.check(exchange.loop(), user == null ? DECOY : user.hash(),
                credentials.password());
        if (check == null) {
            exchange.response().headers().set(HttpHeaders.RETRY_AFTER, "1");
            exchange.replyLocal(LocalReason.AUTH_BUSY, "Too many password checks are waiting; try again shortly");
            return Flow.TAKEN;
        }
        check.onComplete(result -> checked(exchange, user, digest, result));
        return Flow.TAKEN;
    }

    private void checked(Exchange exchange, User user, ByteBuffer digest, AsyncResult<Boolean> result) {
        if (exchange.response().closed() || exchange.response().ended()) {
            return;
        }
        if (result.failed()) {
            LOG.errorf(result.cause(), "request %s: the password check failed", exchange.requestId());
            exchange.replyLocal(LocalReason.INTERNAL_ERROR, "Portico failed while checking the password");
            return;
        }
        if (user == null || !result.result()) {
            refuse(exchange, LocalReason.AUTH_FAILED, "The user name or password is not accepted");
            return;
        }
        cache.verified(digest, user.claims().claim("user"), System.nanoTime());
        admit(exchange, user);
        exchange.proceed();
    }

    private void admit(Exchange exchange, User user) {
        exchange.put(VerifiedClaims.SLOT, user.claims());
        if (!forwardAuthorization) {
            exchange.request().headers().remove(HttpHeaders.AUTHORIZATION);
        }
    }

    private Flow refuse(Exchange exchange, LocalReason reason, String detail) {
        exchange.response().headers().set(WWW_AUTHENTICATE, challenge);
        exchange.replyLocal(reason, detail);
        return Flow.TAKEN;
    }
}
