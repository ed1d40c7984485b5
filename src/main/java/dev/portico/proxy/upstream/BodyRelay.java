package dev.portico.proxy.upstream;

import dev.portico.http.coding.BodyEncoder;
import dev.portico.proxy.core.ReadDeadlines;
import dev.portico.proxy.core.UpstreamTap;
import dev.portico.proxy.upstream.pool.BodyHandoff;
import io.netty.buffer.ByteBuf;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;

import java.util.concurrent.TimeUnit;

/**
 * Streams one body from a source to a destination with back-pressure (pause the source while the destination's
 * write queue is full), like Vert.x's {@code Pipe}, but says which side failed: {@code Pipe} reports both the
 * same way, and a proxy must tell an upstream that broke (reset the client) from a client that left (cancel the
 * upstream). It also gives up on a source that sends nothing for its idle timeout (nginx's
 * {@code proxy_read_timeout} and {@code client_body_timeout} both run between two reads): the deadline restarts with
 * each piece, and stops while the relay itself holds the source back for a slow destination, since the source is
 * not the one waiting then. Runs on one event loop.
 */
final class BodyRelay extends ReadDeadlines.Waiter {

    /** The outcome, reported exactly once. */
    interface Outcome {
        /** The source ended: all of the body has been read and handed to the destination, which is ending now. */
        default void sourceEnded() {
        }

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
         * Asked when the destination goes away (or a write to it fails) before the end: true to read the source to
         * its end anyway, its pieces still shown to the tap, and end as {@link #relayed()}.
         */
        default boolean readOnWithoutDestination() {
            return false;
        }
    }

    private final ReadStream<Buffer> source;
    private final WriteStream<Buffer> destination;
    private final Outcome outcome;
    private final UpstreamTap tap;
    private final BodyEncoder encoder;
    private final ReadDeadlines deadlines;
    private final long idleTimeoutMillis;
    private final long idleTimeoutNanos;
    private final Handler<AsyncResult<Void>> writeAck = this::written;
    private final Handler<Void> drained = v -> readSource();
    /** Gives the source's pieces straight from its socket instead of through the source's handler, or null. */
    private BodyHandoff handoff;
    private boolean done;
    private boolean endedEarly;
    private boolean sourceDone;
    private boolean destinationDone;
    /** The destination is gone and the source is read on for the tap alone. */
    private boolean detached;

    private BodyRelay(ReadStream<Buffer> source, WriteStream<Buffer> destination, UpstreamTap tap,
                      BodyEncoder encoder, ReadDeadlines deadlines, long idleTimeoutMillis, Outcome outcome) {
        this.source = source;
        this.destination = destination;
        this.tap = tap;
        this.encoder = encoder;
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
        new BodyRelay(source, destination, null, null, deadlines, idleTimeoutMillis, outcome).run();
    }

    /**
     * Starts relaying through {@code encoder} (may be null), showing every piece as written to {@code tap} (may be
     * null) just before it is written.
     *
     * @param idleTimeoutMillis the longest wait for the next piece of the source while it is being read
     */
    static BodyRelay start(ReadStream<Buffer> source, WriteStream<Buffer> destination, UpstreamTap tap,
                           BodyEncoder encoder, ReadDeadlines deadlines, long idleTimeoutMillis, Outcome outcome) {
        BodyRelay relay = new BodyRelay(source, destination, tap, encoder, deadlines, idleTimeoutMillis, outcome);
        relay.run();
        return relay;
    }

    /**
     * The destination went away before the end. Returns true when the relay reads on for the tap
     * ({@link Outcome#readOnWithoutDestination()}); false when the caller is to stop the source.
     */
    boolean destinationGone() {
        if (done || detached || !outcome.readOnWithoutDestination()) {
            return detached;
        }
        detached = true;
        destination.drainHandler(null);
        readSource();
        return true;
    }

    /**
     * Takes the rest of the body straight from the upstream socket ({@link BodyHandoff}): only for a plain relay, with
     * no encoder and no tap, which need the bytes on the heap anyway.
     *
     * @return false when the handoff refused (some of the body already went through Vert.x)
     */
    boolean takeFrom(BodyHandoff from) {
        if (encoder != null || tap != null || !from.take(this::take)) {
            return false;
        }
        handoff = from;
        return true;
    }

    /** A piece from the handoff: pooled memory this relay owns until the client's socket has it. */
    private void take(ByteBuf piece) {
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
            deadlines.cancel(this);
            destination.drainHandler(drained);
        }
    }

    private void run() {
        source.handler(chunk -> {
            // One field write: a deadline per chunk must cost nothing measurable.
            deadlines.restartIfRunning(this, idleTimeoutNanos);
            Buffer piece;
            try {
                piece = encoder == null ? chunk : encoder.encode(chunk);
            } catch (RuntimeException e) {
                sourceFailed(e);
                return;
            }
            if (encoder != null && encoder.finished()) {
                // The last piece of a body of known length: the client's response ends with it, in one write
                // (a separate end would cost the chunked terminator its own system call).
                endedEarly = true;
                if (tap != null) {
                    tap.chunk(piece);
                }
                outcome.sourceEnded();
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
        });
        source.exceptionHandler(this::sourceFailed);
        source.endHandler(v -> {
            sourceDone = true;
            deadlines.cancel(this);
            if (endedEarly) {
                relayedWhenBothDone();
                return;
            }
            if (encoder != null) {
                Buffer rest = encoder.finish();
                if (rest.length() > 0) {
                    forward(rest);
                }
            }
            outcome.sourceEnded();
            if (detached) {
                destinationEnded(Future.succeededFuture());
            } else {
                destination.end(this::destinationEnded);
            }
        });
        readSource();
    }

    private void readSource() {
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
            outcome.sourceTimedOut(endedEarly);
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
        if (tap != null) {
            tap.chunk(piece);
        }
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
        if (encoder != null) {
            encoder.release();
        }
        source.handler(null);
        source.exceptionHandler(null);
        source.endHandler(null);
        destination.drainHandler(null);
    }
}
