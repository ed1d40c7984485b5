package dev.portico.proxy.upstream.pool;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.impl.headers.HeadersAdaptor;
import io.vertx.core.net.impl.VertxHandler;

import java.util.ArrayDeque;

/**
 * A response on one of Portico's own HTTP/1.1 connections. Its body is either taken straight from the decoder
 * ({@link BodySource}: the pieces in their pooled memory) or read as a stream of heap copies, as Vert.x's client
 * gives them (a cache keeps them); while the stream is paused, pieces and the end wait here in order and the socket
 * is not read. Lives on the connection's event loop.
 */
final class Http1UpstreamResponse implements UpstreamResponse {

    private static final Object END = new Object();

    private final Http1Connection connection;
    private final HttpResponse head;
    private MultiMap headers;
    private MultiMap trailers;
    private Handler<Buffer> handler;
    private Handler<Void> endHandler;
    private Handler<Throwable> exceptionHandler;
    private BodySource.BodyTaker taker;
    /** Some of the body went to the stream: the taker may not have the rest. */
    private boolean streamed;
    private boolean paused;
    /** Pieces (heap copies), then END or a failure, not yet delivered to the stream's handlers. */
    private ArrayDeque<Object> waiting;
    private boolean ended;

    Http1UpstreamResponse(Http1Connection connection, HttpResponse head) {
        this.connection = connection;
        this.head = head;
    }

    boolean ended() {
        return ended;
    }

    @Override
    public int statusCode() {
        return head.status().code();
    }

    @Override
    public String statusMessage() {
        return head.status().reasonPhrase();
    }

    @Override
    public MultiMap headers() {
        if (headers == null) {
            headers = new HeadersAdaptor(head.headers());
        }
        return headers;
    }

    @Override
    public MultiMap trailers() {
        if (trailers == null) {
            trailers = new HeadersAdaptor(io.netty.handler.codec.http.EmptyHttpHeaders.INSTANCE);
        }
        return trailers;
    }

    @Override
    public HttpVersion version() {
        return head.protocolVersion().minorVersion() == 0 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
    }

    @Override
    public BodySource bodySource() {
        return new BodySource() {
            @Override
            public boolean take(BodyTaker bodyTaker) {
                if (streamed) {
                    return false;
                }
                taker = bodyTaker;
                return true;
            }

            @Override
            public void pause() {
                pauseSocket();
            }

            @Override
            public void resume() {
                resumeSocket();
            }
        };
    }

    @Override
    public HttpClientResponse vertx() {
        return null;
    }

    /**
     * Stops reading the socket while this response's body is read. Once it has ended the connection belongs to the
     * next exchange, which a late pause must not stall.
     */
    private void pauseSocket() {
        if (!ended) {
            connection.pause();
        }
    }

    private void resumeSocket() {
        if (!ended) {
            connection.resume();
        }
    }

    // The connection's report, in order.

    void piece(ByteBuf piece) {
        if (taker != null) {
            taker.take(piece);
            return;
        }
        streamed = true;
        // A heap copy (the pooled piece is released), as Vert.x's client makes: a stream's reader may keep the
        // buffer (a cache does).
        deliver(Buffer.buffer(VertxHandler.safeBuffer(piece)));
    }

    void end(HttpHeaders trailerFields) {
        ended = true;
        if (!trailerFields.isEmpty()) {
            trailers = new HeadersAdaptor(trailerFields);
        }
        deliver(END);
    }

    /**
     * The connection broke mid-body: reported at once, even to a paused reader (the pieces still waiting are of a
     * body that will never be complete), as Vert.x's client does.
     */
    void failed(Throwable cause) {
        if (waiting != null) {
            waiting.clear();
        }
        if (exceptionHandler != null) {
            exceptionHandler.handle(cause);
        } else {
            deliver(cause);
        }
    }

    private void deliver(Object event) {
        if (paused || waiting != null && !waiting.isEmpty() || handlersMissing(event)) {
            if (waiting == null) {
                waiting = new ArrayDeque<>(4);
            }
            waiting.add(event);
            return;
        }
        dispatch(event);
    }

    /** A piece or the end that came before anyone listens for it waits (a failure is reported even so). */
    private boolean handlersMissing(Object event) {
        return event == END ? endHandler == null : event instanceof Buffer && handler == null;
    }

    private void dispatch(Object event) {
        if (event instanceof Buffer piece) {
            handler.handle(piece);
        } else if (event == END) {
            if (endHandler != null) {
                endHandler.handle(null);
            }
        } else if (exceptionHandler != null) {
            exceptionHandler.handle((Throwable) event);
        }
    }

    private void drainWaiting() {
        Object event;
        while (!paused && waiting != null && (event = waiting.peek()) != null && !handlersMissing(event)) {
            waiting.poll();
            dispatch(event);
        }
    }

    // ReadStream

    @Override
    public UpstreamResponse exceptionHandler(Handler<Throwable> handler) {
        exceptionHandler = handler;
        return this;
    }

    @Override
    public UpstreamResponse handler(Handler<Buffer> handler) {
        this.handler = handler;
        drainWaiting();
        return this;
    }

    @Override
    public UpstreamResponse endHandler(Handler<Void> endHandler) {
        this.endHandler = endHandler;
        drainWaiting();
        return this;
    }

    @Override
    public UpstreamResponse pause() {
        if (!paused) {
            paused = true;
            pauseSocket();
        }
        return this;
    }

    @Override
    public UpstreamResponse resume() {
        if (paused) {
            paused = false;
            resumeSocket();
        }
        drainWaiting();
        return this;
    }

    @Override
    public UpstreamResponse fetch(long amount) {
        return amount > 0 ? resume() : this;
    }
}
