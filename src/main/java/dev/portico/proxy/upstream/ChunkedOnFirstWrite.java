package dev.portico.proxy.upstream;

import dev.portico.proxy.upstream.pool.UpstreamRequest;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

/**
 * An HTTP/1.1 upstream request for an HTTP/2 client's request without {@code Content-Length}: whether a body comes
 * is known only when its first DATA frame or its end arrives (RFC 9113 section 8.1). The first piece makes the
 * request chunked; an end with no piece sends the head alone, so a GET stays a request without a body.
 */
final class ChunkedOnFirstWrite implements WriteStream<Buffer> {

    private final UpstreamRequest request;

    ChunkedOnFirstWrite(UpstreamRequest request) {
        this.request = request;
    }

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        request.exceptionHandler(handler);
        return this;
    }

    @Override
    public Future<Void> write(Buffer data) {
        chunkedFromNowOn();
        return request.write(data);
    }

    @Override
    public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
        chunkedFromNowOn();
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
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
        request.setWriteQueueMaxSize(maxSize);
        return this;
    }

    @Override
    public boolean writeQueueFull() {
        return request.writeQueueFull();
    }

    @Override
    public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
        request.drainHandler(handler);
        return this;
    }

    private void chunkedFromNowOn() {
        if (!request.isChunked()) {
            request.setChunked(true);
        }
    }
}
