package dev.portico.proxy.upstream;

import dev.portico.http.HopByHopHeaders;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.headers.HeadersAdaptor;
import io.vertx.core.http.impl.headers.HeadersMultiMap;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Forwards an upstream's interim (1xx) response to the client ahead of the final one: RFC 9110 section 15.2 has a
 * proxy forward them to HTTP/1.1 clients (103 Early Hints lets a browser start loading while the origin still works,
 * 102 Processing tells it the request is alive), with its own {@code Via} and without hop-by-hop fields.
 */
final class InterimForwarding {

    private InterimForwarding() {
    }

    /**
     * Writes {@code interim} on the client's connection. The caller checks that the client speaks HTTP/1.1 and that
     * the final response head is not written yet.
     */
    static void forward(HttpServerRequest client, HttpResponse interim, CharSequence via) {
        HeadersAdaptor upstream = new HeadersAdaptor(interim.headers());
        HeadersMultiMap fields = HeadersMultiMap.httpHeaders();
        HopByHopHeaders.of(upstream).copyEndToEnd(upstream, fields, null, null);
        fields.add(UpstreamCall.VIA, via);
        // Vert.x writes its own 100 and 103 this way (Http1xServerConnection): a complete message straight onto the
        // connection, ahead of the response it has not begun, and its encoder sends a 1xx without a body.
        ((ConnectionBase) client.connection()).channelHandlerContext().writeAndFlush(new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, interim.status(), Unpooled.EMPTY_BUFFER, fields, EmptyHttpHeaders.INSTANCE));
    }
}
