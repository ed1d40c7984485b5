package dev.portico.proxy.core;

import io.vertx.core.buffer.Buffer;

/**
 * The response body phase of one response: the filters of the stages that ran, innermost first (so a cache outside
 * the compressor keeps the compressed body, as the client gets it). Ends or breaks exactly once.
 */
public final class ResponseBodyFilters {

    private final BodyFilter[] filters;
    private boolean ended;
    private boolean closed;

    ResponseBodyFilters(BodyFilter[] filters) {
        this.filters = filters;
    }

    /** What the client gets for {@code piece}; after a filter {@link BodyFilter#ended() ended} the body, its end. */
    public Buffer piece(Buffer piece) {
        Buffer out = piece;
        for (int i = 0; i < filters.length; i++) {
            out = filters[i].piece(out);
            if (filters[i].ended()) {
                // The rest of the chain sees the body end with this piece, before the client can have it.
                ended = true;
                closed = true;
                return endFrom(i + 1, out);
            }
            if (out.length() == 0) {
                // A codec holding its input back: nothing for the filters after it yet.
                return out;
            }
        }
        return out;
    }

    /** Whether the body already ended with a piece ({@link #piece} returned its last bytes). */
    public boolean ended() {
        return ended;
    }

    /** The source ended: the remaining bytes of every filter, passed through the filters after it. */
    public Buffer end() {
        if (closed) {
            return BodyFilter.EMPTY;
        }
        closed = true;
        return endFrom(0, BodyFilter.EMPTY);
    }

    private Buffer endFrom(int first, Buffer carried) {
        Buffer out = carried;
        int i = first;
        try {
            for (; i < filters.length; i++) {
                Buffer passed = out.length() == 0 ? out : filters[i].piece(out);
                Buffer rest = filters[i].end();
                out = rest.length() == 0 ? passed : passed.copy().appendBuffer(rest);
            }
        } catch (RuntimeException e) {
            // The filters not ended yet must not wait for an end that will not come (a fill's waiters would hang).
            for (int j = i; j < filters.length; j++) {
                filters[j].broken();
            }
            throw e;
        }
        return out;
    }

    /** The body will never be complete; ignored once it ended. */
    public void broken() {
        if (!closed) {
            closed = true;
            for (BodyFilter filter : filters) {
                filter.broken();
            }
        }
    }

    /** Whether some filter may hold on to a piece after {@link #piece} returns ({@link BodyFilter#keepsPieces}). */
    public boolean keepsPieces() {
        for (BodyFilter filter : filters) {
            if (filter.keepsPieces()) {
                return true;
            }
        }
        return false;
    }

    /** Whether some filter needs the rest of the body after the client left. */
    public boolean wantsRestWithoutClient() {
        for (BodyFilter filter : filters) {
            if (filter.wantsRestWithoutClient()) {
                return true;
            }
        }
        return false;
    }
}
