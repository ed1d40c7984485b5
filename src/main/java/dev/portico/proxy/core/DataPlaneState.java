package dev.portico.proxy.core;

import io.vertx.core.Context;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the listener instances share with the lifecycle bean: which loops exist, the port, and the drain flag. */
public final class DataPlaneState {

    public record Loop(Context context, LoopState state) {
    }

    private final List<Loop> loops = new CopyOnWriteArrayList<>();
    private volatile boolean draining;
    private volatile int port = -1;

    public void register(Context context, LoopState state, int actualPort) {
        loops.add(new Loop(context, state));
        port = actualPort;
    }

    public List<Loop> loops() {
        return loops;
    }

    public int port() {
        return port;
    }

    boolean draining() {
        return draining;
    }

    public void startDraining() {
        draining = true;
    }

    public int inFlight() {
        int total = 0;
        for (Loop loop : loops) {
            total += loop.state().inFlight();
        }
        return total;
    }
}
