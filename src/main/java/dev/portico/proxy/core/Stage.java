package dev.portico.proxy.core;

import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.ReadStream;

/**
 * One participant in a vhost's request lifecycle, in the onion style of vertx-http-proxy interceptors and Envoy
 * filters, with Pingora's named phases. A stage implements the phases it cares about; the rest pass through. In
 * order:
 * <ol>
 *   <li>{@link #onRequest request}: the head arrived; outermost stage first, until one takes the request;</li>
 *   <li>{@link #onRequestBody request body}: whoever sends the body on reads it through these, outermost first;</li>
 *   <li>{@link #onUpstreamResponse upstream response} or {@link #onUpstreamFailure upstream failure}: an upstream
 *       answered (or could not), innermost first; a stage may answer the client instead;</li>
 *   <li>{@link #onResponseHead response head}: whoever produced the response (upstream, cache, file, local reply),
 *       innermost first, just before the head is written;</li>
 *   <li>{@link #onResponseBody response body}: a streamed upstream body passes through these, innermost first;</li>
 *   <li>{@link #onComplete logging}: the request was accounted, however it ended.</li>
 * </ol>
 * Every phase after the first runs only for the stages whose {@link #onRequest} ran. Separately,
 * {@link #onSubRequest} carries the requests Portico makes on its own from a point in the pipeline (a cache's
 * background refresh) through the stages inside that point.
 *
 * <p>Stages are built once per routing snapshot by the snapshot compiler, are immutable, and are shared by every
 * event loop; anything a stage must remember about one request lives in the {@link Exchange} (typed slots:
 * {@link Slot}), per event loop in {@link Exchange#loop()}, across snapshots in {@link VhostRuntime}. Every
 * phase runs on the request's event loop and must never block.
 */
public interface Stage {

    /**
     * Called when the request head has arrived (the body, if any, is paused and unread).
     *
     * @return {@link Flow#NEXT} to hand the request to the next stage, or {@link Flow#TAKEN} when this stage has
     *     answered the request itself (a local reply, a cache hit) or has taken it over and will answer later;
     *     a stage that goes asynchronous and wants the rest of the pipeline to run calls
     *     {@link Exchange#proceed()} afterwards.
     */
    default Flow onRequest(Exchange exchange) {
        return Flow.NEXT;
    }

    /**
     * The request body as the stages inside this one read it: {@code body} itself, or a stream that reads from it
     * (a size limit counting it). Asked once, when the forwarder starts sending the body.
     */
    default ReadStream<Buffer> onRequestBody(Exchange exchange, ReadStream<Buffer> body) {
        return body;
    }

    /**
     * An upstream's response head arrived; its status is set and its end-to-end headers are copied into
     * {@link Exchange#response()}, nothing is written yet. Runs before {@link #onResponseHead}.
     *
     * @return {@link Flow#TAKEN} when this stage answered the client itself (a revalidated cached response): the
     *     upstream's body is then discarded, and the stages outside this one are not asked
     */
    default Flow onUpstreamResponse(Exchange exchange, int status) {
        return Flow.NEXT;
    }

    /**
     * No upstream answered: a local error reply for {@code reason} is about to be sent.
     *
     * @return {@link Flow#TAKEN} when this stage answered instead (a stale response under {@code stale-if-error})
     */
    default Flow onUpstreamFailure(Exchange exchange, LocalReason reason) {
        return Flow.NEXT;
    }

    /**
     * Called just before the response head is written, whoever produced it (upstream or a local reply), in
     * reverse order over the stages whose {@link #onRequest} ran. The stage may change
     * {@link Exchange#response()}'s status and headers; the body has not been written yet.
     */
    default void onResponseHead(Exchange exchange) {
    }

    /**
     * What this stage does to the streamed body of the response whose head was just sent (compress it, keep a
     * copy), or null to let it pass untouched. Asked once per response, after {@link #onResponseHead}.
     */
    default BodyFilter onResponseBody(Exchange exchange) {
        return null;
    }

    /** The request was accounted (the response ended, failed, or the client left). */
    default void onComplete(Exchange exchange) {
    }

    /**
     * A request Portico makes by itself on behalf of {@code request.parent()} from a stage outside this one; the
     * stage edits it as it edits a client's request and passes it on with {@code next}, or answers it (the forwarder
     * does). Runs on the parent's event loop.
     */
    default Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        return next.proceed(request);
    }

    /** What a stage's {@link #onRequest} (or another phase that may answer) decided. */
    enum Flow {
        /** Continue with the next stage. */
        NEXT,
        /** The stage answered or owns the request now; the pipeline stops here. */
        TAKEN
    }
}
