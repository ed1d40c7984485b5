package dev.portico.proxy.server.http1;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import io.vertx.core.http.impl.headers.HeadersMultiMap;

import java.nio.charset.StandardCharsets;

/**
 * Vert.x's request decoder with two differences, both safe only because {@link RequestGuard} checked the line
 * first:
 * <ul>
 * <li>the request target is decoded as UTF-8, not byte by byte as Latin-1. Netty's client writes a request's
 * target as UTF-8, so the origin then receives exactly the bytes the client sent (with Latin-1, {@code /a%C3%A9}
 * sent raw as {@code /aé} reached the origin encoded twice);</li>
 * <li>any HTTP/1.x with x above 1 is handled as HTTP/1.1 (RFC 9110 section 2.5), where Vert.x answered 501.</li>
 * </ul>
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {

    StrictRequestDecoder(HttpServerOptions options) {
        super(options);
    }

    @Override
    protected HttpMessage createMessage(String[] initialLine) {
        HttpVersion version = "HTTP/1.0".equals(initialLine[2]) ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
        return new DefaultHttpRequest(version, HttpMethod.valueOf(initialLine[0]), initialLine[1],
                HeadersMultiMap.httpHeaders());
    }

    @Override
    protected String splitSecondWordInitialLine(byte[] asciiContent, int start, int length) {
        // An ASCII target (nearly all) takes the JDK's fast path: one vectorised check, one copy.
        return new String(asciiContent, start, length, StandardCharsets.UTF_8);
    }
}
