package dev.portico.proxy.upstream.pool;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.streams.ReadStream;

/**
 * An upstream's response to one {@link UpstreamRequest}: its head, and its body as a stream (or taken whole from the
 * connection through {@link #bodySource()}), whichever client carried it. Lives on the connection's event loop.
 */
public interface UpstreamResponse extends ReadStream<Buffer> {

    int statusCode();

    String statusMessage();

    MultiMap headers();

    /** The trailer fields, once the body has ended (none before). */
    MultiMap trailers();

    HttpVersion version();

    /** The body straight from the connection's decoder, or null where the connection has no such path. */
    BodySource bodySource();

    /** The Vert.x response underneath, for a protocol switch; null on Portico's own HTTP/1.1 connections. */
    HttpClientResponse vertx();
}
