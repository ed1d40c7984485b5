package dev.portico.proxy.core;

/**
 * One step of a vhost's request pipeline, in the onion style of vertx-http-proxy interceptors and Envoy filters:
 * requests flow down the vhost's ordered stage list, response heads flow back up through the stages that ran.
 *
 * <p>Stages are built once per routing snapshot by the snapshot compiler, are immutable, and are shared by every
 * event loop; anything a stage must remember about one request lives in the {@link Exchange}, anything it must
 * remember per event loop lives in {@link Exchange#loop()}. Both methods run on the request's event loop and must
 * never block.
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
     * Called just before the response head is written, whoever produced it (upstream or a local reply), in
     * reverse order over the stages whose {@link #onRequest} ran. The stage may change
     * {@link Exchange#response()}'s status and headers; the body has not been written yet.
     */
    default void onResponseHead(Exchange exchange) {
    }

    /** What a stage's {@link #onRequest} decided. */
    enum Flow {
        /** Continue with the next stage. */
        NEXT,
        /** The stage answered or owns the request now; the pipeline stops here. */
        TAKEN
    }
}
