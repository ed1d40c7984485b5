package dev.portico.proxy.core;

/**
 * Sees every finished request after it has been accounted: the access log and the traffic analytics are
 * observers. Implementations are CDI singletons, discovered at start.
 *
 * <p>Threading: {@link #completed} and {@link #flush} run on the request's event loop, which owns loop index
 * {@code exchange.loop().index()}; they must be cheap and must never block. Work that needs I/O is handed to
 * another thread through a bounded per-loop structure and is dropped (and counted in
 * {@link dev.portico.telemetry.Drops}) when that is full: accounting may lose data, it may not slow a request.
 */
public interface RequestObserver {

    /** Called once, before the data plane accepts requests, with the number of event loops (indexes 0..n-1). */
    default void start(int eventLoops) {
    }

    /** A request finished; {@link Exchange#status()} and the other completion fields are final now. */
    void completed(Exchange exchange);

    /**
     * Called on each event loop about five times a second, and once more after shutdown drained the loop: push
     * out whatever this loop has batched.
     */
    default void flush(int loopIndex) {
    }

    /** Called once at shutdown after every loop's final {@link #flush}: write out and release everything. */
    default void stop() {
    }
}
