package dev.portico.proxy.upstream.pool;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.streams.WriteStream;

/**
 * One request on an upstream connection, whichever client carries it: Portico's own HTTP/1.1 pool
 * ({@link Http1Pool}: cleartext HTTP/1.1 upstreams) or Vert.x's (TLS, HTTP/2, protocol switches). The head goes
 * out with the first write or the end, so its fields may be set until then; the body is a write stream with
 * back-pressure. Lives on the connection's event loop.
 */
public interface UpstreamRequest extends WriteStream<Buffer> {

    /** The request's fields, to be set before the first write. */
    MultiMap headers();

    HttpVersion version();

    boolean isChunked();

    /** Sends the body in the chunked coding (HTTP/1.1), for a body whose length is not known. */
    UpstreamRequest setChunked(boolean chunked);

    /** The response, or the reason there is none (the connection broke, the response was malformed, a reset). */
    Future<UpstreamResponse> response();

    /**
     * Gives up on the request: an HTTP/1.1 connection closes (mid-message its state is unknown), an HTTP/2 stream is
     * reset, and the response (or its body) fails. Does nothing once both the request and the response are complete.
     *
     * @return whether anything was reset
     */
    boolean reset();

    /** {@link #reset()}, failing the response with {@code cause} (a timeout maps to upstream_response_timeout). */
    boolean reset(Throwable cause);

    /** The connection's HTTP/1.1 codec, or null (HTTP/2): it reports interim responses and stale connections. */
    UpstreamCodec codec();

    /**
     * The Vert.x request underneath, for what only Vert.x's client carries here (an HTTP/2 {@code :authority}, a
     * protocol switch); null on Portico's own HTTP/1.1 connections.
     */
    HttpClientRequest vertx();
}
