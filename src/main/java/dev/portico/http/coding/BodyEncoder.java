package dev.portico.http.coding;

import io.vertx.core.buffer.Buffer;

/**
 * Compresses one response body as it streams through, one piece at a time, so memory stays the codec's window
 * whatever the body's size. Each call returns what the codec has ready to send, flushed so the client can decode
 * everything it was given so far (a streamed response is never held back waiting for more input). Confined to one
 * event loop; one instance per response.
 */
public interface BodyEncoder {

    /** Compresses {@code piece}; the result may be empty. The piece is not modified. */
    Buffer encode(Buffer piece);

    /** Ends the compressed stream and returns its remaining bytes; the encoder is released. */
    Buffer finish();

    /**
     * Whether the compressed stream has ended: {@link #finish()} was called, or {@link #encode} was given the last
     * byte of a body of known length and so returned the end of the stream with it.
     */
    boolean finished();

    /** Releases the codec's native memory without finishing: the response was abandoned. Idempotent. */
    void release();
}
