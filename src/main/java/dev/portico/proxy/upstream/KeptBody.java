package dev.portico.proxy.upstream;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

/**
 * The request body on its way to an upstream, with a copy kept up to the vhost's {@code retry.retryBufferSize} so that
 * a retry can send it again once the client has sent it all: the client's bytes cannot be asked for twice. A body
 * that grows past the limit drops its copy and is never replayed (Envoy's {@code per_request_buffer_limit_bytes}
 * works the same way). Runs on the request's event loop.
 */
final class KeptBody implements WriteStream<Buffer> {

    private final WriteStream<Buffer> destination;
    private final long limit;
    private Buffer copy = Buffer.buffer();
    private boolean complete;

    KeptBody(WriteStream<Buffer> destination, long limit) {
        this.destination = destination;
        this.limit = limit;
    }

    /** The whole body, when it was all sent and small enough to keep; null otherwise. */
    Buffer whole() {
        return complete ? copy : null;
    }

    private void keep(Buffer data) {
        if (copy != null) {
            if (copy.length() + (long) data.length() > limit) {
                copy = null;
            } else {
                copy.appendBuffer(data);
            }
        }
    }

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        destination.exceptionHandler(handler);
        return this;
    }

    @Override
    public Future<Void> write(Buffer data) {
        keep(data);
        return destination.write(data);
    }

    @Override
    public void write(Buffer data, Handler<AsyncResult<Void>> handler) {
        keep(data);
        destination.write(data, handler);
    }

    @Override
    public Future<Void> end() {
        complete = copy != null;
        return destination.end();
    }

    @Override
    public void end(Handler<AsyncResult<Void>> handler) {
        // The source ended, so every byte of the body went through here: the copy, if still kept, is the body.
        complete = copy != null;
        destination.end(handler);
    }

    @Override
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
        destination.setWriteQueueMaxSize(maxSize);
        return this;
    }

    @Override
    public boolean writeQueueFull() {
        return destination.writeQueueFull();
    }

    @Override
    public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
        destination.drainHandler(handler);
        return this;
    }
}
