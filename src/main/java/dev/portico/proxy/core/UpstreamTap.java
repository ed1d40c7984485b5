package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.buffer.Buffer;

/**
 * Lets a stage watch, and where it must take over, the upstream's answer to this request on its way to the client:
 * a cache fills itself from the body, answers a revalidation's 304 from what it stored, or serves a stale response
 * when the origin fails. At most one tap per request; all methods run on the request's event loop.
 */
public interface UpstreamTap {

    /**
     * The upstream's response head has arrived and its end-to-end headers are already copied into
     * {@link Exchange#response()}; nothing has been written to the client yet.
     *
     * @return true when the tap answers the client itself: the upstream body is then discarded
     */
    default boolean head(Exchange exchange, int status) {
        return false;
    }

    /**
     * A piece of the upstream's body, about to be handed to the client connection: what the tap does with the last
     * piece happens before the client can have the whole response. The buffer must not be modified.
     */
    default void chunk(Buffer chunk) {
    }

    /** The upstream's body is complete; called before the client's response is ended. */
    default void end() {
    }

    /**
     * The client left after the head: whether the tap still needs the rest of the body (other requests are
     * streaming it), in which case the upstream is read to its end for the tap alone.
     */
    default boolean wantsBodyWithoutClient() {
        return false;
    }

    /** The upstream failed or was cancelled after its head; the client connection is being reset. */
    default void broken() {
    }

    /**
     * The upstream could not be reached or did not answer, and a local error reply for {@code reason} is about to
     * be sent.
     *
     * @return true when the tap answered the client instead (e.g. a stale response under {@code stale-if-error})
     */
    default boolean failed(Exchange exchange, LocalReason reason) {
        return false;
    }

    /**
     * A later stage answered the request itself (a static file): no upstream response will come. Runs before that
     * answer's head is sent.
     */
    default void answeredLocally() {
    }
}
