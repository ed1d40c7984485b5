package dev.portico.proxy.upstream.pool;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.http.impl.headers.HeadersMultiMap;

/**
 * A request on one of Portico's own HTTP/1.1 connections ({@link Http1Connection}). Its fields are a Vert.x header
 * map that Netty's encoder writes as it is (no copy into another map), checked as each field is added like Vert.x's
 * own. The head goes out with the first write or the end; a head without a body is written with its end in one
 * buffer. Lives on the connection's event loop.
 */
final class Http1UpstreamRequest implements UpstreamRequest, Http1Connection.ResponseListener {

    private static final io.netty.handler.codec.http.HttpVersion NETTY_HTTP_1_1 =
            io.netty.handler.codec.http.HttpVersion.HTTP_1_1;

    private final Http1Connection connection;
    private final HttpMethod method;
    private final String uri;
    /** The {@code Host} sent when the caller sets none, as Vert.x's client does: the origin's host and port. */
    private final String defaultHost;
    private final HeadersMultiMap headers = HeadersMultiMap.httpHeaders();
    private final Promise<UpstreamResponse> response = Promise.promise();
    private Http1UpstreamResponse received;
    private Handler<Throwable> exceptionHandler;
    private boolean chunked;
    private boolean headSent;
    private boolean ended;
    private boolean failed;

    Http1UpstreamRequest(Http1Connection connection, HttpMethod method, String uri, String defaultHost) {
        this.connection = connection;
        this.method = method;
        this.uri = uri;
        this.defaultHost = defaultHost;
    }

    @Override
    public MultiMap headers() {
        return headers;
    }

    @Override
    public HttpVersion version() {
        return HttpVersion.HTTP_1_1;
    }

    @Override
    public boolean isChunked() {
        return chunked;
    }

    @Override
    public UpstreamRequest setChunked(boolean chunked) {
        if (headSent) {
            throw new IllegalStateException("the request head is already sent");
        }
        this.chunked = chunked;
        return this;
    }

    @Override
    public Future<UpstreamResponse> response() {
        return response.future();
    }

    @Override
    public UpstreamCodec codec() {
        return connection.codec();
    }

    @Override
    public HttpClientRequest vertx() {
        return null;
    }

    @Override
    public boolean reset() {
        return reset(new StreamResetException(0));
    }

    @Override
    public boolean reset(Throwable cause) {
        if (failed || ended && received != null && received.ended()) {
            // Complete on both sides: the connection already serves the next request, or is closed.
            return false;
        }
        if (!headSent) {
            // Nothing went out (the client left, or its body never started): the connection has no exchange to
            // fail, so the response fails here; the connection closes rather than be checked for reuse.
            failed = true;
            connection.channel().close();
            response.tryFail(cause);
            return true;
        }
        connection.reset(cause);
        return true;
    }

    /** The head, with the whole request's framing when {@code whole} (no body: written at once with its end). */
    private HttpRequest head(boolean whole) {
        headSent = true;
        if (chunked) {
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
            headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        if (!headers.contains(HttpHeaderNames.HOST)) {
            headers.set(HttpHeaderNames.HOST, defaultHost);
        }
        io.netty.handler.codec.http.HttpMethod nettyMethod = method.toNetty();
        return whole
                ? new DefaultFullHttpRequest(NETTY_HTTP_1_1, nettyMethod, uri, Unpooled.EMPTY_BUFFER, headers,
                        EmptyHttpHeaders.INSTANCE)
                : new DefaultHttpRequest(NETTY_HTTP_1_1, nettyMethod, uri, headers);
    }

    @Override
    public Future<Void> write(Buffer data) {
        Promise<Void> written = Promise.promise();
        write(data, written);
        return written.future();
    }

    @Override
    public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
        if (failed || ended) {
            reportLate(handler);
            return;
        }
        if (!headSent) {
            if (!chunked && !headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
                // An unframed body would run into whatever the connection carries next.
                throw new IllegalStateException("a request body needs a Content-Length or the chunked coding");
            }
            connection.send(head(false), this);
        }
        // getByteBuf is a view the channel's release cannot free: the buffer may be kept for a retry.
        connection.write(data.getByteBuf(), listener(handler));
    }

    @Override
    public void end(Handler<AsyncResult<Void>> handler) {
        if (failed || ended) {
            reportLate(handler);
            return;
        }
        ended = true;
        if (!headSent) {
            if (!chunked) {
                connection.send(head(true), this);
                if (handler != null) {
                    handler.handle(Future.succeededFuture());
                }
                return;
            }
            connection.send(head(false), this);
        }
        connection.end(Unpooled.EMPTY_BUFFER, null, listener(handler));
    }

    private static ChannelFutureListener listener(Handler<AsyncResult<Void>> handler) {
        if (handler == null) {
            return ChannelFutureListener.CLOSE_ON_FAILURE;
        }
        return future -> handler.handle(future.isSuccess() ? Future.succeededFuture()
                : Future.failedFuture(future.cause()));
    }

    private static void reportLate(Handler<AsyncResult<Void>> handler) {
        if (handler != null) {
            handler.handle(Future.failedFuture(new IllegalStateException("the upstream request is over")));
        }
    }

    @Override
    public UpstreamRequest exceptionHandler(Handler<Throwable> handler) {
        exceptionHandler = handler;
        return this;
    }

    @Override
    public UpstreamRequest setWriteQueueMaxSize(int maxSize) {
        // Netty's write buffer water marks decide when the queue is full.
        return this;
    }

    @Override
    public boolean writeQueueFull() {
        return connection.writeQueueFull();
    }

    @Override
    public UpstreamRequest drainHandler(Handler<Void> handler) {
        if (!failed && !ended) {
            // Once the request is over the connection may carry the next one, whose drain this is not.
            connection.drainHandler(handler == null ? null : () -> handler.handle(null));
        }
        return this;
    }

    // The connection's report of the response.

    @Override
    public void head(HttpResponse head) {
        received = new Http1UpstreamResponse(connection, head);
        response.complete(received);
    }

    @Override
    public void piece(ByteBuf piece) {
        received.piece(piece);
    }

    @Override
    public void end(HttpHeaders trailers) {
        received.end(trailers);
    }

    @Override
    public void failed(Throwable cause) {
        failed = true;
        Handler<Throwable> told = exceptionHandler;
        if (told != null && !ended) {
            told.handle(cause);
        }
        if (received == null) {
            response.tryFail(cause);
        } else {
            received.failed(cause);
        }
    }
}
