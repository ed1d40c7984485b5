package dev.portico.proxy.core.body;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * Ends a response with a body held in memory, a large one in slices of 32 KiB, each its own socket write once the
 * one before it has gone out. Measured on the cache-hit benchmark (loadtests/, 100 KiB): one {@code writev} of the
 * whole body cost the kernel half as much again as writes of 32 KiB, which is also how nginx sends from its 32 KiB
 * output buffers. It bounds memory per slow client as well: at most one slice waits in Portico's outbound buffer.
 */
public final class SlicedBody {

    static final int SLICE = 32 * 1024;

    private final HttpServerResponse response;
    private final Buffer body;
    private int written;

    private SlicedBody(HttpServerResponse response, Buffer body) {
        this.response = response;
        this.body = body;
    }

    /** Ends {@code response} with {@code body}, whose length is already in the head's {@code Content-Length}. */
    public static void end(HttpServerResponse response, Buffer body) {
        if (body.length() <= SLICE) {
            response.end(body);
        } else {
            new SlicedBody(response, body).next();
        }
    }

    private void next() {
        // A write the socket takes at once completes before it returns; looping instead of continuing from its
        // completion keeps the stack flat however many slices a fast client swallows in one go.
        while (written + SLICE < body.length()) {
            Future<Void> sent = response.write(body.slice(written, written + SLICE));
            written += SLICE;
            if (!sent.isComplete()) {
                sent.onComplete(done -> continueAfter(done.succeeded()));
                return;
            }
            if (sent.failed() || response.closed()) {
                return;
            }
        }
        response.end(body.slice(written, body.length()));
    }

    /**
     * A failed write means the connection is gone or going: Vert.x then reports the close to the exchange, which
     * completes it. Closing the response here instead would get ahead of that report and swallow it (a response
     * Portico closes itself gets no close handler call), leaving the request in flight.
     */
    private void continueAfter(boolean sent) {
        if (sent && !response.closed()) {
            next();
        }
    }
}
