package dev.portico.proxy.https;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.vhost.TlsSpec;
import io.vertx.core.http.HttpHeaders;

/**
 * A vhost's {@code tls.hsts}: every response over TLS carries {@code Strict-Transport-Security}, whoever produced it
 * (upstream, cache, static file, local reply), replacing one the upstream sent: the vhost's setting is the operator's
 * word for the host, and an application behind it must not lengthen or drop a policy browsers keep for months. Never
 * over cleartext (RFC 6797 section 7.2: a browser ignores it there, and a man in the middle could forge it). The
 * vhost's {@code responseHeaders} rules run after this stage and may still edit it.
 */
public final class StrictTransportSecurityStage implements Stage {

    /** Present when the vhost sets {@code tls.hsts}. */
    public static final StageFactory FACTORY = context -> {
        TlsSpec.Hsts hsts = context.spec().tls().hsts();
        return hsts == null ? null : new StrictTransportSecurityStage(hsts.headerValue());
    };

    static final CharSequence STRICT_TRANSPORT_SECURITY = HttpHeaders.createOptimized("Strict-Transport-Security");

    /** Pre-encoded once per snapshot: written on every response without encoding. */
    private final CharSequence value;

    private StrictTransportSecurityStage(String value) {
        this.value = HttpHeaders.createOptimized(value);
    }

    @Override
    public void onResponseHead(Exchange exchange) {
        if (exchange.request().isSSL()) {
            exchange.response().headers().set(STRICT_TRANSPORT_SECURITY, value);
        }
    }
}
