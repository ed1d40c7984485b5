package dev.portico.proxy.core;

/**
 * Names one kind of per-vhost state that outlives routing snapshots ({@link VhostRuntime}). Created once, as a
 * constant of the stage that owns the state; keys compare by identity.
 *
 * @param <T> the state's type
 */
public final class RuntimeKey<T> {

    private final String name;
    private final Class<T> type;

    private RuntimeKey(String name, Class<T> type) {
        this.name = name;
        this.type = type;
    }

    public static <T> RuntimeKey<T> create(String name, Class<T> type) {
        return new RuntimeKey<>(name, type);
    }

    T cast(Object state) {
        return type.cast(state);
    }

    @Override
    public String toString() {
        return name;
    }
}
