package dev.portico.proxy.core;

import io.vertx.core.buffer.Buffer;

/**
 * One stage's part in the response body phase ({@link Stage#onResponseBody}): sees, and may transform, each piece of
 * a streamed body on its way to the client. One instance per response, confined to its event loop.
 */
public interface BodyFilter {

    Buffer EMPTY = Buffer.buffer(0);

    /** What goes on towards the client for {@code piece}; may be empty. The piece must not be modified. */
    Buffer piece(Buffer piece);

    /** The body is complete: what is left to send. Called at most once, before the client's response ends. */
    default Buffer end() {
        return EMPTY;
    }

    /**
     * Whether this filter produced the end of the body with its last piece (a compressor given the last byte of a
     * body of known length): {@link #end()} is not called then, and the response ends with that piece.
     */
    default boolean ended() {
        return false;
    }

    /** The body will never be complete (the upstream broke, the client left): let go of what was kept. */
    default void broken() {
    }

    /**
     * When the client leaves before the end: whether this filter still needs the rest of the body (other requests are
     * streaming it), in which case the upstream is read to its end for the filters alone.
     */
    default boolean wantsRestWithoutClient() {
        return false;
    }

    /**
     * Whether this filter may hold on to a piece, or pass it on as it is, after {@link #piece} returns (a cache keeps
     * the pieces it stores). A filter that never does (a codec reads its input into its own state and returns bytes
     * of its own) can be fed straight from the upstream connection's pooled memory, which goes back to the pool as
     * soon as the filter returns.
     */
    default boolean keepsPieces() {
        return true;
    }
}
