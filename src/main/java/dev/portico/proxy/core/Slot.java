package dev.portico.proxy.core;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The key of one feature's state kept in an owner that does not know the state's type (Pingora's per-request
 * context): in an {@link Exchange} per request (a cache's tap, a chosen coding), in a {@link LoopState} per event loop
 * (the connection pools, the adopted snapshot). Typed like a {@code ThreadLocal}; the owner's type is part of the
 * key's, so a per-loop key cannot be used on a request. A key is a slot number fixed when it is declared, so a lookup
 * is an array read on the request path, not a map lookup.
 *
 * @param <O> the owner: {@link Exchange} or {@link LoopState}
 * @param <T> the state's type
 */
public final class Slot<O, T> {

    private static final ConcurrentHashMap<Class<?>, AtomicInteger> DECLARED = new ConcurrentHashMap<>();

    private final int index;
    private final String name;

    private Slot(int index, String name) {
        this.index = index;
        this.name = name;
    }

    /** Declares a kind of state kept in {@code owner}s; call once, into a static final field. */
    public static <O, T> Slot<O, T> declare(Class<O> owner, String name) {
        return new Slot<>(counter(owner).getAndIncrement(), name);
    }

    /** The count of slots declared for {@code owner} so far; read it again to see later declarations. */
    static AtomicInteger counter(Class<?> owner) {
        return DECLARED.computeIfAbsent(owner, type -> new AtomicInteger());
    }

    int index() {
        return index;
    }

    @Override
    public String toString() {
        return name;
    }
}
