package dev.portico.proxy.forwarding;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

/**
 * Tells the upstream who the client is: RFC 7239 {@code Forwarded} plus the de-facto {@code X-Forwarded-For},
 * {@code X-Forwarded-Proto}, {@code X-Forwarded-Host} and {@code X-Real-IP}. What a trusted proxy in front of us
 * wrote is kept and extended; from anyone else those headers are spoofable and are replaced.
 */
public final class ForwardingHeadersStage implements Stage {

    public static final ForwardingHeadersStage INSTANCE = new ForwardingHeadersStage();

    /** On every vhost with upstreams. */
    public static final StageFactory FACTORY = context -> context.proxied() ? INSTANCE : null;

    // Pre-encoded names: hashed once, written without encoding, on every forwarded request.
    static final CharSequence FORWARDED = HttpHeaders.createOptimized("Forwarded");
    static final CharSequence X_FORWARDED_FOR = HttpHeaders.createOptimized("X-Forwarded-For");
    static final CharSequence X_FORWARDED_PROTO = HttpHeaders.createOptimized("X-Forwarded-Proto");
    static final CharSequence X_FORWARDED_HOST = HttpHeaders.createOptimized("X-Forwarded-Host");
    static final CharSequence X_REAL_IP = HttpHeaders.createOptimized("X-Real-IP");

    private ForwardingHeadersStage() {
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        edit(exchange.request().headers(), exchange);
        return Flow.NEXT;
    }

    /** Portico's own requests (a background refresh) reach the origin as the client's request they are made for. */
    @Override
    public Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        edit(request.headers(), request.parent());
        return next.proceed(request);
    }

    private static void edit(MultiMap headers, Exchange exchange) {
        String client = exchange.clientAddress();
        String proto = exchange.request().scheme();
        String host = exchange.target().authority();
        String element = "for=" + forwardedNode(client) + ";host=" + forwardedValue(host) + ";proto=" + proto;
        if (exchange.peerTrusted()) {
            append(headers, FORWARDED, element);
            append(headers, X_FORWARDED_FOR, client);
            setIfAbsent(headers, X_FORWARDED_PROTO, proto);
            setIfAbsent(headers, X_FORWARDED_HOST, host);
            setIfAbsent(headers, X_REAL_IP, client);
        } else {
            headers.set(FORWARDED, element);
            headers.set(X_FORWARDED_FOR, client);
            headers.set(X_FORWARDED_PROTO, proto);
            headers.set(X_FORWARDED_HOST, host);
            headers.set(X_REAL_IP, client);
        }
    }

    /** RFC 7239 section 6: an IPv6 node is bracketed, and then must be quoted. */
    static String forwardedNode(String address) {
        return address.indexOf(':') >= 0 ? "\"[" + address + "]\"" : address;
    }

    /** A value is a token or a quoted-string (RFC 7239 section 4); {@code host:port} needs quotes. */
    static String forwardedValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (!isTokenChar(value.charAt(i))) {
                return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            }
        }
        return value;
    }

    private static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static void append(MultiMap headers, CharSequence name, String value) {
        var existing = headers.getAll(name);
        if (existing.isEmpty()) {
            headers.set(name, value);
        } else {
            headers.set(name, String.join(", ", existing) + ", " + value);
        }
    }

    private static void setIfAbsent(MultiMap headers, CharSequence name, String value) {
        if (!headers.contains(name)) {
            headers.set(name, value);
        }
    }
}
