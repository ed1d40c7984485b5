package dev.portico.proxy.route;

import dev.portico.http.TrustedProxies;
import dev.portico.proxy.access.AccessRulesStage;
import dev.portico.proxy.acme.AcmeChallengeStage;
import dev.portico.proxy.basicauth.BasicAuthStage;
import dev.portico.proxy.cache.CacheStage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.cors.CorsStage;
import dev.portico.proxy.encoding.CompressionStage;
import dev.portico.proxy.errorpages.ErrorPagesStage;
import dev.portico.proxy.files.StaticFilesStage;
import dev.portico.proxy.forwardauth.ForwardAuthStage;
import dev.portico.proxy.forwarding.ForwardingHeadersStage;
import dev.portico.proxy.headers.HeaderRulesStage;
import dev.portico.proxy.headers.SecurityHeadersStage;
import dev.portico.proxy.https.HttpsRedirectStage;
import dev.portico.proxy.https.StrictTransportSecurityStage;
import dev.portico.proxy.https.WwwRedirectStage;
import dev.portico.proxy.jwt.JwtStage;
import dev.portico.proxy.limits.InFlightLimitStage;
import dev.portico.proxy.limits.RequestBodyLimitStage;
import dev.portico.proxy.ratelimit.RateLimitStage;
import dev.portico.proxy.routes.PathRewriteStage;
import dev.portico.proxy.routes.RouteReplyStage;

import java.util.List;

/**
 * Every stage a vhost's pipeline can have, in pipeline order, outermost first: adding a stage is its folder and one
 * line here. Requests pass the stages in this order; response heads come back through those that ran in reverse.
 */
final class StageRegistry {

    private StageRegistry() {
    }

    /**
     * @param breaker the factory of the circuit breaker's stage (the compiler owns the breakers with the upstream groups)
     * @param forward the factory of the forwarder, the innermost stage (the compiler owns the upstream groups)
     * @param trusted the proxies whose X-Forwarded-For names the client the access rules check
     */
    static List<StageFactory> pipeline(StageFactory breaker, StageFactory forward, TrustedProxies trusted) {
        return List.of(
                // ACME's HTTP-01 challenges are answered before anything of the vhost runs.
                AcmeChallengeStage.FACTORY,
                // Response edits run last on the way back, so they see the security defaults and can replace them.
                HeaderRulesStage.RESPONSE,
                SecurityHeadersStage.FACTORY,
                // On every response over TLS, local replies and the redirect's included (it returns at once over
                // cleartext, where the header must not be sent).
                StrictTransportSecurityStage.FACTORY,
                // Before every stage that may refuse the request, whose replies it renders; inside the response edits and
                // security headers, which then apply to the pages too. Its upstream part runs after the compressor's
                // (inside it), so a replaced body goes out as the page, not compressed.
                ErrorPagesStage.FACTORY,
                // Before anything that reads, caches or forwards the request: a redirected one goes nowhere. After the
                // response edits, which the 308 carries like any other local reply.
                HttpsRedirectStage.FACTORY,
                // After the https redirect, so http://www.name goes to https://www.name first (where HSTS can
                // cover it, as preload lists ask), then to the canonical name; before anything reads the request.
                WwwRedirectStage.FACTORY,
                // Before anything that reads, caches, serves or forwards: a refused client never gets a cached answer
                // and does not count against the in-flight limit. After the response edits, which the 403 carries.
                AccessRulesStage.factory(trusted),
                // The first policy after the IP rules: a preflight carries no credentials (browsers never send them), so it
                // is answered before any authentication; the responses of the stages inside it carry its fields.
                CorsStage.FACTORY,
                // Basic auth after the IP rules (a refused address never costs a password check), before what the
                // user may be counted by (a rate limit per user) and anything that serves or forwards.
                BasicAuthStage.FACTORY,
                // After the IP rules (a refused client costs the auth service nothing), before the in-flight limit
                // (a request waiting on its verdict is not yet work of the vhost), the body and anything that serves:
                // a cached answer or a file is never given to a request the service refused.
                ForwardAuthStage.FACTORY,
                // The same place for the same reasons; after forward auth, so a vhost with both asks the service
                // first (its session cookie may be what gets the client a token).
                JwtStage.FACTORY,
                // After authentication, which may name the key (claim:user); before the in-flight count, so a limited
                // client holds no slot of it.
                RateLimitStage.factory(trusted),
                // Shedding comes before any work of the request; after the response edits, which the 503 carries.
                InFlightLimitStage.FACTORY,
                // Before anything that could read the body or answer 100-continue; after the response edits, so a
                // 413 carries them like any other local reply.
                RequestBodyLimitStage.FACTORY,
                // A route Portico answers itself (a redirect, a fixed response) is answered once every policy let the
                // request through and before anything that would serve or forward it.
                RouteReplyStage.FACTORY,
                // Inside the response edits (they apply to hits too), before the forwarding headers a hit does not
                // need.
                CacheStage.FACTORY,
                // Inside the cache, which so keys entries by the client's URL, and before the static files, which
                // look the rewritten path up.
                PathRewriteStage.FACTORY,
                // Inside the cache, which so stores responses as clients get them; outside the static files, which
                // choose their own representation with the same policy.
                CompressionStage.FACTORY,
                // After the cache (which stores what the upstreams answer for paths no file matches), before what
                // only prepares the upstream request.
                StaticFilesStage.FACTORY,
                // Inside the cache (hits are served while it is open; a stale response may answer for it) and the
                // static files; before anything prepares the upstream request it may refuse.
                breaker,
                ForwardingHeadersStage.FACTORY,
                HeaderRulesStage.REQUEST,
                forward);
    }
}
