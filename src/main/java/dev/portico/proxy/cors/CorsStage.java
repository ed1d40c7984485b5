package dev.portico.proxy.cors;

import dev.portico.http.VaryField;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Slot;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * A vhost's or route's {@code cors}. A preflight ({@code OPTIONS} with {@code Origin} and
 * {@code Access-Control-Request-Method}) is answered here, 204 {@code cors_preflight} or 403 {@code cors_refused},
 * before any authentication stage: browsers never send credentials on a preflight, so one behind a password could
 * never pass. Every other response (forwarded, cached, a file, a local reply of a stage inside this one) gets the
 * policy's fields for an allowed origin, and loses the {@code Access-Control-*} fields the upstream sent: the vhost's
 * policy rules, so an upstream cannot widen it (echo any origin with credentials) nor contradict it.
 */
public final class CorsStage implements Stage {

    public static final StageFactory FACTORY = context -> context.spec().cors().isEmpty() ? null
            : new CorsStage(new CorsPolicy(context.spec().cors()));

    private static final Slot<Exchange, String> ALLOWED_ORIGIN = Slot.declare(Exchange.class, "cors allowed origin");
    private static final String REQUEST_METHOD = "Access-Control-Request-Method";
    private static final String REQUEST_HEADERS = "Access-Control-Request-Headers";
    private static final String ALLOW_ORIGIN = "Access-Control-Allow-Origin";
    private static final String ALLOW_CREDENTIALS = "Access-Control-Allow-Credentials";
    private static final String ALLOW_METHODS = "Access-Control-Allow-Methods";
    private static final String ALLOW_HEADERS = "Access-Control-Allow-Headers";
    private static final String EXPOSE_HEADERS = "Access-Control-Expose-Headers";
    private static final String MAX_AGE = "Access-Control-Max-Age";
    /** Every response field of the CORS protocol (and Private Network Access's), replaced by the policy's. */
    private static final String[] CORS_RESPONSE_FIELDS = {ALLOW_ORIGIN, ALLOW_CREDENTIALS, ALLOW_METHODS,
            ALLOW_HEADERS, EXPOSE_HEADERS, MAX_AGE, "Access-Control-Allow-Private-Network"};
    private static final String ORIGIN = "Origin";
    /** Longest part of a client's value quoted in a refusal. */
    private static final int QUOTED = 200;

    private final CorsPolicy policy;

    private CorsStage(CorsPolicy policy) {
        this.policy = policy;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        HttpServerRequest request = exchange.request();
        String origin = request.getHeader(ORIGIN);
        if (origin == null) {
            return Flow.NEXT;
        }
        String allowed = policy.allowOrigin(origin);
        String method = request.method() == HttpMethod.OPTIONS ? request.getHeader(REQUEST_METHOD) : null;
        if (method == null) {
            if (allowed != null) {
                exchange.put(ALLOWED_ORIGIN, allowed);
            }
            return Flow.NEXT;
        }
        String requestedHeaders = request.getHeader(REQUEST_HEADERS);
        String refusal = allowed == null ? "origin " + quoted(origin)
                : !policy.allowsMethod(method.trim()) ? "method " + quoted(method)
                : refusalOfHeader(policy.refusedHeader(requestedHeaders));
        if (refusal != null) {
            exchange.replyLocal(LocalReason.CORS_REFUSED, "The CORS policy does not allow the preflight's " + refusal);
            return Flow.TAKEN;
        }
        MultiMap headers = exchange.response().headers();
        headers.set(ALLOW_ORIGIN, allowed);
        if (policy.credentials()) {
            headers.set(ALLOW_CREDENTIALS, "true");
        }
        headers.set(ALLOW_METHODS, policy.allowMethods(method.trim()));
        String allowHeaders = policy.allowHeaders(requestedHeaders);
        if (allowHeaders != null) {
            headers.set(ALLOW_HEADERS, allowHeaders);
        }
        if (policy.maxAge() != null) {
            headers.set(MAX_AGE, policy.maxAge());
        }
        exchange.replyLocalWithoutBody(LocalReason.CORS_PREFLIGHT);
        return Flow.TAKEN;
    }

    private static String refusalOfHeader(String header) {
        return header == null ? null : "header " + quoted(header);
    }

    private static String quoted(String value) {
        return value.length() > QUOTED ? value.substring(0, QUOTED) + "..." : value;
    }

    @Override
    public void onResponseHead(Exchange exchange) {
        MultiMap headers = exchange.response().headers();
        LocalReason reason = exchange.reason();
        if (reason == LocalReason.CORS_PREFLIGHT || reason == LocalReason.CORS_REFUSED) {
            // A 204 has no content, not even a length of none (RFC 9110 section 8.6).
            if (reason == LocalReason.CORS_PREFLIGHT) {
                headers.remove(HttpHeaders.CONTENT_LENGTH);
            }
            VaryField.add(headers, ORIGIN, REQUEST_METHOD, REQUEST_HEADERS);
            return;
        }
        for (String field : CORS_RESPONSE_FIELDS) {
            headers.remove(field);
        }
        if (policy.anyOrigin()) {
            // The same answer for every origin (and none): nothing to vary on.
            headers.set(ALLOW_ORIGIN, "*");
        } else {
            VaryField.add(headers, ORIGIN);
            String allowed = exchange.get(ALLOWED_ORIGIN);
            if (allowed == null) {
                return;
            }
            headers.set(ALLOW_ORIGIN, allowed);
            if (policy.credentials()) {
                headers.set(ALLOW_CREDENTIALS, "true");
            }
        }
        if (policy.exposeHeaders() != null) {
            headers.set(EXPOSE_HEADERS, policy.exposeHeaders());
        }
    }
}
