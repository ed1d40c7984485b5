package dev.portico.proxy.headers;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

/**
 * Adds the default security headers to every response that does not carry them already: the origin's own choice
 * wins, and a vhost's {@code responseHeaders} rules run after this stage so they can replace or remove them.
 */
public final class SecurityHeadersStage implements Stage {

    public static final SecurityHeadersStage DEFAULTS = new SecurityHeadersStage();

    /** Present unless the vhost turns the defaults off. */
    public static final StageFactory FACTORY = context -> context.spec().securityHeaders() ? DEFAULTS : null;

    // Pre-encoded names and values: hashed once, written without encoding, on every response.
    static final CharSequence CONTENT_TYPE_OPTIONS = HttpHeaders.createOptimized("X-Content-Type-Options");
    static final CharSequence FRAME_OPTIONS = HttpHeaders.createOptimized("X-Frame-Options");
    static final CharSequence REFERRER_POLICY = HttpHeaders.createOptimized("Referrer-Policy");
    private static final CharSequence NOSNIFF = HttpHeaders.createOptimized("nosniff");
    private static final CharSequence SAMEORIGIN = HttpHeaders.createOptimized("SAMEORIGIN");
    private static final CharSequence STRICT_ORIGIN = HttpHeaders.createOptimized("strict-origin-when-cross-origin");

    private SecurityHeadersStage() {
    }

    @Override
    public void onResponseHead(Exchange exchange) {
        MultiMap headers = exchange.response().headers();
        if (!headers.contains(CONTENT_TYPE_OPTIONS)) {
            headers.set(CONTENT_TYPE_OPTIONS, NOSNIFF);
        }
        if (!headers.contains(FRAME_OPTIONS)) {
            headers.set(FRAME_OPTIONS, SAMEORIGIN);
        }
        if (!headers.contains(REFERRER_POLICY)) {
            headers.set(REFERRER_POLICY, STRICT_ORIGIN);
        }
    }
}
