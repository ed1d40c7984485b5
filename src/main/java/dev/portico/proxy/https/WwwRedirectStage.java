package dev.portico.proxy.https;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.http.HttpHeaders;

import java.util.Map;

/**
 * A vhost's {@code wwwRedirect}: a request for {@code www.example.com} is answered with {@code 308} to the same URL
 * on {@code example.com} ({@code to_apex}), or the reverse ({@code to_www}). The scheme is the one the request came
 * in on, the port the one the client named, the path and query exactly as sent. 308 for every method, as the https
 * redirect: a POST keeps its method and body (RFC 9110 section 15.4.9), where 301 lets clients turn it into a GET.
 * Which names redirect is worked out once per snapshot; a name the vhost only matches by a wildcard passes.
 */
public final class WwwRedirectStage implements Stage {

    /** Present when the vhost asks for the redirect and lists both forms of at least one name. */
    public static final StageFactory FACTORY = context -> {
        if (context.spec().wwwRedirect() == null) {
            return null;
        }
        Map<String, String> redirects = context.spec().wwwRedirect().redirects(context.spec().hostnames());
        return redirects.isEmpty() ? null : new WwwRedirectStage(Map.copyOf(redirects));
    };

    private final Map<String, String> redirects;

    private WwwRedirectStage(Map<String, String> redirects) {
        this.redirects = redirects;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        String canonical = redirects.get(exchange.target().hostname());
        String target = exchange.target().pathAndQuery();
        // ACME HTTP-01 challenges are for the name asked (RFC 8555 section 8.3); "OPTIONS *" has no URL to send.
        if (canonical == null || target.startsWith(HttpsRedirectStage.ACME_CHALLENGES) || target.charAt(0) != '/') {
            return Flow.NEXT;
        }
        exchange.response().headers().set(HttpHeaders.LOCATION, HttpsRedirectStage.location(
                exchange.request().isSSL(), canonical, port(exchange.target().authority()), target));
        exchange.replyLocalWithoutBody(LocalReason.WWW_REDIRECT);
        return Flow.TAKEN;
    }

    /** The port the client named in its Host (or :authority), or -1; only names redirect, never IPv6 literals. */
    private static int port(String authority) {
        int colon = authority.lastIndexOf(':');
        return colon < 0 ? -1 : Integer.parseInt(authority.substring(colon + 1));
    }
}
