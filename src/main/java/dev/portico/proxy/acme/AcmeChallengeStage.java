package dev.portico.proxy.acme;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Answers the ACME CA's HTTP-01 challenges for a vhost with automatic certificates (RFC 8555 section 8.3):
 * {@code GET /.well-known/acme-challenge/<token>} gets the token's key authorization, from the snapshot, so every
 * replica answers whichever one the CA reaches. Outermost, before the cache, redirects and upstreams; a token Portico
 * did not publish goes on through the pipeline, so an upstream's own ACME client keeps working.
 */
public final class AcmeChallengeStage implements Stage {

    static final String PREFIX = "/.well-known/acme-challenge/";

    /** Present on vhosts with {@code tls.acme}. */
    public static final StageFactory FACTORY = context -> context.spec().tls().acme()
            ? new AcmeChallengeStage(context.acmeChallenges()) : null;

    private final Map<String, String> challenges;

    private AcmeChallengeStage(Map<String, String> challenges) {
        this.challenges = challenges;
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        if (challenges.isEmpty() || exchange.request().method() != HttpMethod.GET) {
            return Flow.NEXT;
        }
        String path = exchange.request().path();
        if (path == null || !path.startsWith(PREFIX)) {
            return Flow.NEXT;
        }
        String keyAuthorization = challenges.get(path.substring(PREFIX.length()));
        if (keyAuthorization == null) {
            return Flow.NEXT;
        }
        Buffer body = Buffer.buffer(keyAuthorization.getBytes(StandardCharsets.US_ASCII));
        HttpServerResponse response = exchange.response();
        response.setStatusCode(200);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream")
                .set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(body.length()))
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
        exchange.sendHead();
        response.end(body);
        exchange.request().resume();
        return Flow.TAKEN;
    }
}
