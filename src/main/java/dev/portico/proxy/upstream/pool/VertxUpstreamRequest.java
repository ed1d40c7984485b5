package dev.portico.proxy.upstream.pool;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpVersion;

/** An {@link UpstreamRequest} on a connection of Vert.x's client (TLS, HTTP/2, protocol switches). */
final class VertxUpstreamRequest implements UpstreamRequest {

    private final HttpClientRequest request;
    private final UpstreamCodec codec;

    VertxUpstreamRequest(HttpClientRequest request) {
        this.request = request;
        this.codec = UpstreamCodec.of(request.connection());
    }

    @Override
    public MultiMap headers() {
        return request.headers();
    }

    @Override
    public HttpVersion version() {
        return request.version();
    }

    @Override
    public boolean isChunked() {
        return request.isChunked();
    }

    @Override
    public UpstreamRequest setChunked(boolean chunked) {
        request.setChunked(chunked);
        return this;
    }

    @Override
    public Future<UpstreamResponse> response() {
        return request.response().map(VertxUpstreamResponse::new);
    }

    @Override
    public boolean reset() {
        return request.reset();
    }

    @Override
    public boolean reset(Throwable cause) {
        return request.reset(0, cause);
    }

    @Override
    public UpstreamCodec codec() {
        return codec;
    }

    @Override
    public HttpClientRequest vertx() {
        return request;
    }

    @Override
    public UpstreamRequest exceptionHandler(Handler<Throwable> handler) {
        request.exceptionHandler(handler);
        return this;
    }

    @Override
    public Future<Void> write(Buffer data) {
        return request.write(data);
    }

    @Override
    public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
        request.write(data, handler);
    }

    @Override
    public Future<Void> end() {
        return request.end();
    }

    @Override
    public void end(Handler<AsyncResult<Void>> handler) {
        request.end(handler);
    }

    @Override
    public UpstreamRequest setWriteQueueMaxSize(int maxSize) {
        request.setWriteQueueMaxSize(maxSize);
        return this;
    }

    @Override
    public boolean writeQueueFull() {
        return request.writeQueueFull();
    }

    @Override
    public UpstreamRequest drainHandler(Handler<Void> handler) {
        request.drainHandler(handler);
        return this;
    }
}
