package dev.portico.proxy.upstream.pool;

import io.netty.buffer.ByteBuf;

/**
 * A response body that can be taken straight from the upstream connection's decoder, each piece in the decoder's
 * own pooled memory, instead of as Vert.x buffers (a copy to the heap per piece and another back to direct memory
 * on the way to the client). The taker is then the only reader and holds the socket back itself while the client is
 * slow. Lives on the connection's event loop.
 */
public interface BodySource {

    /** Takes the pieces of a response body, in order; each is pooled memory the taker must release exactly once. */
    interface BodyTaker {
        void take(ByteBuf piece);
    }

    /**
     * Gives the rest of the current response's body to {@code taker}. Call while the response head is being
     * handled, before any piece of the body has gone by.
     *
     * @return false when some of the body was already read the other way (the caller then reads it as a stream)
     */
    boolean take(BodyTaker taker);

    /** Stops reading the upstream socket (while the client is slow). */
    void pause();

    /** Reads the upstream socket again. */
    void resume();
}
