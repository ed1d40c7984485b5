package dev.portico.proxy.upstream;

import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.ResponseBodyFilters;
import dev.portico.proxy.upstream.pool.BodySource;
import io.netty.buffer.ByteBuf;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Streams one body from a source to a destination with back-pressure (pause the source while the destination's
 * write queue is full), like Vert.x's {@code Pipe}, but says which side failed: {@code Pipe} reports both the
 * same way, and a proxy must tell an upstream that broke (reset the client) from a client that left (cancel the
 * upstream). It also gives up on a source that sends nothing for its idle timeout (nginx's
 * {@code proxy_read_timeout} and {@code client_body_timeout} both run between two reads): the deadline restarts with
 * each piece, and stops while the relay itself holds the source back for a slow destination, since the source is
 * not the one waiting then. A response body passes the response body phase's filters on its way (a compressor, a cache
 * keeping a copy). Runs on one event loop.
 */
final class BodyRelay extends ReadDeadlines.Waiter {

    /** The outcome, reported exactly once. */
    interface Outcome {
        void relayed();

        void sourceFailed(Throwable cause);

        /**
         * The source sent nothing for the idle timeout while the relay was reading it; the relay has let go of both.
         *
         * @param destinationEnded whether the destination already has the whole body (an encoder knew its end)
         */
        void sourceTimedOut(boolean destinationEnded);

        void destinationFailed(Throwable cause);

        /**
         * The source ended and the destination is about to: the moment to hand on the source's trailer fields
         * (gRPC's {@code grpc-status}), which go out with the destination's end.
         */
        default void sourceEnded() {
        }

        /**
         * The destination took nothing for the stall timeout while the relay held the source back for it (a client
         * that stopped reading, or an HTTP/2 client that never opens its flow-control window); the relay has let go
         * of both.
         */
        default void destinationStalled(long stallTimeoutMillis) {
            destinationFailed(new TimeoutException("the destination took nothing for " + stallTimeoutMillis + " ms"));
        }
    }

    private final ReadStream<Buffer> source;
    private final WriteStream<Buffer> destination;
    private final Outcome outcome;
    /** The response body phase, or null (a request body, or a response no stage filters). */
    private final ResponseBodyFilters filters;
    private final ReadDeadlines deadlines;
    private final long idleTimeoutMillis;
    private final long idleTimeoutNanos;
    /** The longest the destination may take nothing while the source waits for it; 0 for no limit. */
    private long stallTimeoutMillis;
    /** The source is paused for the destination, whose stall timeout runs. */
    private boolean heldBack;
    private final Handler<AsyncResult<Void>> writeAck = this::written;
    private final Handler<Void> drained = v -> readSource();
    /** Gives the source's pieces straight from its socket instead of through the source's handler, or null. */
    private BodySource handoff;
    private boolean done;
    private boolean endedEarly;
    private boolean sourceDone;
    private boolean destinationDone;
    /** The destination is gone and the source is read on for the filters alone. */
    private boolean detached;

    private BodyRelay(ReadStream<Buffer> source, WriteStream<Buffer> destination, ResponseBodyFilters filters,
                      ReadDeadlines deadlines, long idleTimeoutMillis, Outcome outcome) {
        this.source = source;
        this.destination = destination;
        this.filters = filters;
        this.deadlines = deadlines;
        this.idleTimeoutMillis = idleTimeoutMillis;
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMillis);
        this.outcome = outcome;
    }

    /**
     * Starts relaying; the source may be paused when called and is resumed here.
     *
     * @param idleTimeoutMillis the longest wait for the next piece of the source while it is being read
     */
    static void start(ReadStream<Buffer> source, WriteStream<Buffer> destination, ReadDeadlines deadlines,
                      long idleTimeoutMillis, Outcome outcome) {
        new BodyRelay(source, destination, null, deadlines, idleTimeoutMillis, outcome).run();
    }

    /**
     * Starts relaying through the response body phase's {@code filters} (may be null).
     *
     * @param idleTimeoutMillis  the longest wait for the next piece of the source while it is being read
     * @param stallTimeoutMillis the longest the destination may take nothing while the relay holds the source back
     *                           for it (nginx {@code send_timeout}); 0 for no limit
     */
    static BodyRelay start(ReadStream<Buffer> source, WriteStream<Buffer> destination, ResponseBodyFilters filters,
                           ReadDeadlines deadlines, long idleTimeoutMillis, long stallTimeoutMillis,
                           Outcome outcome) {
        BodyRelay relay = new BodyRelay(source, destination, filters, deadlines, idleTimeoutMillis, outcome);
        relay.stallTimeoutMillis = stallTimeoutMillis;
        relay.run();
        return relay;
    }

    /**
     * The destination went away before the end. Returns true when the relay reads on for the filters (one still needs
     * the body: requests collapsed onto this one are streaming it from the cache's fill); false when the caller is to
     * stop the source.
     */
    boolean destinationGone() {
        if (done || detached || sourceDone || filters == null || !filters.wantsRestWithoutClient()) {
            return detached;
        }
        detached = true;
        destination.drainHandler(null);
        readSource();
        return true;
    }

    /** Whether the source has ended: the upstream's response is complete, whatever becomes of the client's. */
    boolean sourceEnded() {
        return sourceDone;
    }

    /**
     * Takes the rest of the body straight from the upstream socket ({@link BodySource}): for a plain relay, and for
     * body filters that are done with each piece when they return (a compressor); not for a cache, which keeps the
     * pieces it stores.
     *
     * @return false when the handoff refused (some of the body already went through Vert.x)
     */
    boolean takeFrom(BodySource from) {
        if (filters != null && filters.keepsPieces() || !from.take(this::take)) {
            return false;
        }
        handoff = from;
        return true;
    }

    /** A piece from the handoff: pooled memory this relay owns until the client's socket has it. */
    private void take(ByteBuf piece) {
        if (filters != null) {
            try {
                if (!done) {
                    fromSource(Buffer.buffer(piece));
                }
            } finally {
                // The filters have read it (they keep no piece): the pooled memory goes back at once.
                piece.release();
            }
            return;
        }
        deadlines.restartIfRunning(this, idleTimeoutNanos);
        if (done || detached) {
            piece.release();
            return;
        }
        try {
            // Buffer.buffer wraps without copying; Vert.x hands the socket a view it cannot release, so the piece is
            // released here once written (or once the write failed).
            destination.write(Buffer.buffer(piece), ack -> {
                piece.release();
                written(ack);
            });
        } catch (RuntimeException e) {
            piece.release();
            destinationFailed(e);
            return;
        }
        holdBackIfFull();
    }

    private void holdBackIfFull() {
        if (destination.writeQueueFull()) {
            // Held back by the relay, the source is not idle: its deadline waits for the drain.
            if (handoff != null) {
                handoff.pause();
            } else {
                source.pause();
            }
            heldBack = true;
            if (stallTimeoutMillis > 0) {
                deadlines.start(this, stallTimeoutMillis);
            } else {
                deadlines.cancel(this);
            }
            destination.drainHandler(drained);
        }
    }

    private void run() {
        source.handler(this::fromSource);
        source.exceptionHandler(this::sourceFailed);
        source.endHandler(v -> {
            sourceDone = true;
            deadlines.cancel(this);
            letGoOfTheSource();
            if (endedEarly) {
                relayedWhenBothDone();
                return;
            }
            if (filters != null) {
                // Before the client can see the end: a cache stores the response before the client's next request
                // can arrive, and a complete body is stored even if the client connection fails on the last write.
                Buffer rest;
                try {
                    rest = filters.end();
                } catch (RuntimeException e) {
                    sourceFailed(e);
                    return;
                }
                if (rest.length() > 0) {
                    forward(rest);
                }
            }
            if (detached) {
                destinationEnded(Future.succeededFuture());
            } else {
                outcome.sourceEnded();
                destination.end(this::destinationEnded);
            }
        });
        readSource();
    }

    /** A piece of the source, through the source's handler or from the handoff: filtered and passed on. */
    private void fromSource(Buffer chunk) {
        // One field write: a deadline per chunk must cost nothing measurable.
        deadlines.restartIfRunning(this, idleTimeoutNanos);
        Buffer piece;
        try {
            piece = filters == null ? chunk : filters.piece(chunk);
        } catch (RuntimeException e) {
            sourceFailed(e);
            return;
        }
        if (filters != null && filters.ended()) {
            // The last piece of a body of known length: the client's response ends with it, in one write
            // (a separate end would cost the chunked terminator its own system call).
            endedEarly = true;
            if (detached) {
                destinationEnded(Future.succeededFuture());
            } else {
                destination.end(piece, this::destinationEnded);
            }
            return;
        }
        if (piece.length() == 0) {
            return;
        }
        forward(piece);
        if (!detached) {
            holdBackIfFull();
        }
    }

    /**
     * The source ended while held back: a body's last piece can fill the destination's queue, and the end comes with
     * it. No drain will come to resume the socket then (neither HTTP/1.1 nor HTTP/2 sends one for a response that has
     * ended), and a socket left unread goes back to the pool deaf: the next request given to it would wait for the
     * read timeout.
     */
    private void letGoOfTheSource() {
        if (heldBack) {
            heldBack = false;
            destination.drainHandler(null);
            if (handoff != null) {
                handoff.resume();
            }
        }
    }

    private void readSource() {
        heldBack = false;
        deadlines.start(this, idleTimeoutMillis);
        if (handoff != null) {
            handoff.resume();
        }
        source.resume();
    }

    @Override
    protected void expired() {
        if (!done) {
            done = true;
            detach();
            if (heldBack) {
                outcome.destinationStalled(stallTimeoutMillis);
            } else {
                outcome.sourceTimedOut(endedEarly);
            }
        }
    }

    private void destinationEnded(AsyncResult<Void> ended) {
        if (ended.failed() && !detached) {
            destinationFailed(ended.cause());
        } else {
            destinationDone = true;
            relayedWhenBothDone();
        }
    }

    /** The upstream connection is reusable only once its response has ended, whenever the client's did. */
    private void relayedWhenBothDone() {
        if (sourceDone && destinationDone && !done) {
            done = true;
            outcome.relayed();
        }
    }

    private void forward(Buffer piece) {
        if (!detached) {
            destination.write(piece, writeAck);
        }
    }

    private void written(AsyncResult<Void> ack) {
        if (ack.failed()) {
            destinationFailed(ack.cause());
        }
    }

    private void sourceFailed(Throwable cause) {
        if (!done) {
            done = true;
            detach();
            if (endedEarly) {
                // The client already has the whole body; only the upstream's own ending went wrong.
                outcome.relayed();
            } else {
                outcome.sourceFailed(cause);
            }
        }
    }

    private void destinationFailed(Throwable cause) {
        if (detached || destinationGone()) {
            return;
        }
        if (!done) {
            done = true;
            detach();
            outcome.destinationFailed(cause);
        }
    }

    private void detach() {
        deadlines.cancel(this);
        if (filters != null) {
            // A body that never ended: nothing of it is stored, the codec's memory is freed.
            filters.broken();
        }
        source.handler(null);
        source.exceptionHandler(null);
        source.endHandler(null);
        destination.drainHandler(null);
    }
}
