package dev.portico.dataplane;

import io.vertx.core.Context;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the listener instances share with the lifecycle bean: which loops exist, the port, and the drain flag. */
final class DataPlaneState {

    record Loop(Context context, LoopState state) {
    }

    private final List<Loop> loops = new CopyOnWriteArrayList<>();
    private volatile boolean draining;
    private volatile int port = -1;

    void register(Context context, LoopState state, int actualPort) {
        loops.add(new Loop(context, state));
        port = actualPort;
    }

    List<Loop> loops() {
        return loops;
    }

    int port() {
        return port;
    }

    boolean draining() {
        return draining;
    }

    void startDraining() {
        draining = true;
    }

    int inFlight() {
        int total = 0;
        for (Loop loop : loops) {
            total += loop.state().inFlight();
        }
        return total;
    }
}
