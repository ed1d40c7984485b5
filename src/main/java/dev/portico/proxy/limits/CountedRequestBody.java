package dev.portico.proxy.limits;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;

/**
 * A chunked request body read through a byte count: the piece that takes it past the limit is never handed on.
 * Then the upstream request is reset, so the origin never sees the body end as if it were complete, and the client
 * gets 413 (its connection closed, the rest of the body unread) — or, when the upstream's response has already
 * begun, its connection is reset. Everything else is the request's own stream.
 */
final class CountedRequestBody implements ReadStream<Buffer> {

    private final Exchange exchange;
    private final ReadStream<Buffer> source;
    private final long maxBytes;
    private long received;
    private boolean refused;

    /** @param body the body as the stages outside read it: the request itself, today */
    CountedRequestBody(Exchange exchange, ReadStream<Buffer> body, long maxBytes) {
        this.exchange = exchange;
        this.source = body;
        this.maxBytes = maxBytes;
    }

    @Override
    public ReadStream<Buffer> handler(Handler<Buffer> handler) {
        source.handler(handler == null ? null : piece -> {
            if (refused) {
                return;
            }
            received += piece.length();
            if (received > maxBytes) {
                refuse();
            } else {
                handler.handle(piece);
            }
        });
        return this;
    }

    @Override
    public ReadStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
        // After a refusal the closing connection fails the request; that is no news to the one forwarding it.
        source.exceptionHandler(handler == null ? null : failure -> {
            if (!refused) {
                handler.handle(failure);
            }
        });
        return this;
    }

    @Override
    public ReadStream<Buffer> endHandler(Handler<Void> handler) {
        source.endHandler(handler == null ? null : end -> {
            if (!refused) {
                handler.handle(end);
            }
        });
        return this;
    }

    @Override
    public ReadStream<Buffer> pause() {
        source.pause();
        return this;
    }

    @Override
    public ReadStream<Buffer> resume() {
        if (!refused) {
            source.resume();
        }
        return this;
    }

    @Override
    public ReadStream<Buffer> fetch(long amount) {
        if (!refused) {
            source.fetch(amount);
        }
        return this;
    }

    private void refuse() {
        refused = true;
        source.pause();
        exchange.reason(LocalReason.REQUEST_BODY_TOO_LARGE);
        // The client side is finished as far as the upstream is concerned: this runs the hook that resets the
        // upstream request, and a reset the client caused is not held against the upstream's health.
        exchange.clientGone();
        if (exchange.headSent()) {
            exchange.abort(LocalReason.REQUEST_BODY_TOO_LARGE);
        } else {
            exchange.replyLocal(LocalReason.REQUEST_BODY_TOO_LARGE, "The request body grew past the "
                    + maxBytes + " bytes this vhost accepts", true);
        }
    }
}
