package dev.portico.proxy.server.http1;

import dev.portico.http.HopByHopHeaders;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * An upstream's interim (1xx) response as HTTP/1.1 sends it to a client: RFC 9110 section 15.2 has a proxy forward
 * them to HTTP/1.1 clients only (HTTP/1.0 does not know 1xx), with its own {@code Via} and without hop-by-hop fields.
 */
final class InterimResponse {

    private static final CharSequence VIA = HttpHeaders.createOptimized("Via");

    private InterimResponse() {
    }

    /** Writes the interim response ahead of {@code client}'s final one, if the client speaks HTTP/1.1. */
    static boolean send(HttpServerRequest client, int status, String reasonPhrase, MultiMap upstream,
                        CharSequence via) {
        if (client.version() != io.vertx.core.http.HttpVersion.HTTP_1_1) {
            return false;
        }
        HeadersMultiMap fields = HeadersMultiMap.httpHeaders();
        HopByHopHeaders.of(upstream).copyEndToEnd(upstream, fields, null, null);
        fields.add(VIA, via);
        // Vert.x writes its own 100 and 103 this way (Http1xServerConnection): a complete message straight onto the
        // connection, ahead of the response it has not begun, and its encoder sends a 1xx without a body.
        ((ConnectionBase) client.connection()).channelHandlerContext().writeAndFlush(new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status, reasonPhrase), Unpooled.EMPTY_BUFFER, fields,
                EmptyHttpHeaders.INSTANCE));
        return true;
    }
}
