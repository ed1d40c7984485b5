package dev.portico.proxy.https;

import dev.portico.http.syntax.NonAsciiEscaping;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.http.HttpHeaders;


/**
 * A vhost's {@code tls.httpsRedirect}: a request on a cleartext listener is answered with {@code 308 Permanent
 * Redirect} to the same URL over https (308 rather than 301: the method and body are kept, RFC 9110 section 15.4.9),
 * before any other stage of the vhost reads, forwards or caches it. Requests over TLS pass. So do ACME HTTP-01
 * challenges (RFC 8555 section 8.3), which the CA fetches over plain http and must reach their responder.
 */
public final class HttpsRedirectStage implements Stage {

    /** Present when the vhost asks for the redirect. */
    public static final StageFactory FACTORY = context -> context.spec().tls().httpsRedirect()
            ? new HttpsRedirectStage() : null;

    static final String ACME_CHALLENGES = "/.well-known/acme-challenge/";

    private HttpsRedirectStage() {
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        if (exchange.request().isSSL()) {
            return Flow.NEXT;
        }
        String target = exchange.target().pathAndQuery();
        // "OPTIONS *" names the server, not a resource: there is no URL to send it to.
        if (target.startsWith(ACME_CHALLENGES) || target.charAt(0) != '/') {
            return Flow.NEXT;
        }
        exchange.response().headers().set(HttpHeaders.LOCATION,
                location(exchange.target().hostname(), exchange.loop().tlsPort(), target));
        exchange.replyLocalWithoutBody(LocalReason.HTTPS_REDIRECT);
        return Flow.TAKEN;
    }

    /**
     * {@code https://host[:port]/target}: the host without the port the client used for http, the TLS listener's
     * port unless it is https's default 443 (or there is no TLS listener here: a TLS front in front of Portico is
     * then assumed on 443), and the request-target as the client sent it.
     */
    static String location(String hostname, int tlsPort, String target) {
        return location(true, hostname, tlsPort, target);
    }

    /**
     * {@code scheme://host[:port]/target}, the port left out when it is the scheme's default or unknown ({@code <= 0}),
     * and the request-target as the client sent it (only bytes a URI cannot carry are escaped).
     */
    static String location(boolean https, String hostname, int port, String target) {
        StringBuilder url = new StringBuilder(16 + hostname.length() + target.length())
                .append(https ? "https://" : "http://").append(hostname);
        if (port > 0 && port != (https ? 443 : 80)) {
            url.append(':').append(port);
        }
        return url.append(NonAsciiEscaping.escape(target)).toString();
    }

}
