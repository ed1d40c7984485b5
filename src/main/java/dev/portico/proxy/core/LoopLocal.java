package dev.portico.proxy.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The key of one kind of per-event-loop state a feature keeps in {@link LoopState} (the upstream connection pools,
 * the server's adopted snapshot): typed like a {@code ThreadLocal}, so the core holds every feature's per-loop state
 * without knowing its type. A key is a slot number fixed when it is declared, so a lookup is an array read on the
 * request path, not a map lookup.
 *
 * @param <T> the state's type
 */
public final class LoopLocal<T> {

    private static final AtomicInteger DECLARED = new AtomicInteger();

    private final int slot;
    private final String name;

    private LoopLocal(int slot, String name) {
        this.slot = slot;
        this.name = name;
    }

    /** Declares a kind of per-loop state; call once, into a static final field. */
    public static <T> LoopLocal<T> declare(String name) {
        return new LoopLocal<>(DECLARED.getAndIncrement(), name);
    }

    int slot() {
        return slot;
    }

    static int declared() {
        return DECLARED.get();
    }

    @Override
    public String toString() {
        return name;
    }
}
