package dev.portico.dataplane.stage.headers;

import dev.portico.dataplane.Exchange;
import dev.portico.dataplane.stage.Stage;
import io.vertx.core.MultiMap;

/**
 * Adds the default security headers to every response that does not carry them already: the origin's own choice
 * wins, and a vhost's {@code responseHeaders} rules run after this stage so they can replace or remove them.
 */
public final class SecurityHeadersStage implements Stage {

    public static final SecurityHeadersStage DEFAULTS = new SecurityHeadersStage();

    static final String CONTENT_TYPE_OPTIONS = "X-Content-Type-Options";
    static final String FRAME_OPTIONS = "X-Frame-Options";
    static final String REFERRER_POLICY = "Referrer-Policy";

    private SecurityHeadersStage() {
    }

    @Override
    public void onResponseHead(Exchange exchange) {
        MultiMap headers = exchange.response().headers();
        if (!headers.contains(CONTENT_TYPE_OPTIONS)) {
            headers.set(CONTENT_TYPE_OPTIONS, "nosniff");
        }
        if (!headers.contains(FRAME_OPTIONS)) {
            headers.set(FRAME_OPTIONS, "SAMEORIGIN");
        }
        if (!headers.contains(REFERRER_POLICY)) {
            headers.set(REFERRER_POLICY, "strict-origin-when-cross-origin");
        }
    }
}
