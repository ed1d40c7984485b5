package dev.portico.proxy.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The key of one stage's per-request state in an {@link Exchange} (Pingora's per-request context): typed like a
 * {@code ThreadLocal}, so a stage keeps what it must remember between its phases (a cache fill, a chosen coding)
 * without the exchange knowing the type. A key is a slot number fixed when it is declared: an array read per use.
 *
 * @param <T> the state's type
 */
public final class RequestLocal<T> {

    private static final AtomicInteger DECLARED = new AtomicInteger();

    private final int slot;
    private final String name;

    private RequestLocal(int slot, String name) {
        this.slot = slot;
        this.name = name;
    }

    /** Declares a kind of per-request state; call once, into a static final field. */
    public static <T> RequestLocal<T> declare(String name) {
        return new RequestLocal<>(DECLARED.getAndIncrement(), name);
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
