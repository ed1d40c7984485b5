package dev.portico.http.coding;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Finished native codec states (a zlib stream, a Zstandard context) kept per thread for the next response: setting
 * one up costs more than a small body takes to compress. Each thread keeps its own, so nothing is shared or locked.
 */
final class IdleStates<T> {

    /** Enough for the responses one event loop compresses at once. */
    private static final int KEPT = 16;

    private final ThreadLocal<ArrayDeque<T>> idle = ThreadLocal.withInitial(() -> new ArrayDeque<>(KEPT));
    private final Supplier<T> create;
    private final Consumer<T> reset;
    private final Consumer<T> discard;

    /**
     * @param create makes a new state when none is idle
     * @param reset readies a used state for another stream
     * @param discard frees a state that is not kept
     */
    IdleStates(Supplier<T> create, Consumer<T> reset, Consumer<T> discard) {
        this.create = create;
        this.reset = reset;
        this.discard = discard;
    }

    /** An idle state of this thread, or a new one. */
    T take() {
        T state = idle.get().poll();
        return state != null ? state : create.get();
    }

    /** Keeps a state this thread is done with (reset), or frees it when enough are kept. */
    void give(T state) {
        ArrayDeque<T> kept = idle.get();
        if (kept.size() < KEPT) {
            reset.accept(state);
            kept.push(state);
        } else {
            discard.accept(state);
        }
    }
}
