package dev.portico.proxy.core;

import io.vertx.core.Context;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the listener instances share with the lifecycle bean: which loops exist, the ports the listeners are bound to,
 * and the drain flag.
 */
public final class DataPlaneState {

    public record Loop(Context context, LoopState state) {
    }

    private final List<Loop> loops = new CopyOnWriteArrayList<>();
    private volatile boolean draining;
    private volatile List<Integer> ports = List.of();
    private volatile int tlsPort = -1;

    /**
     * A loop's instance is serving; {@code listenerPorts} are the bound ports, in the listeners' order, and
     * {@code boundTlsPort} the TLS listener's among them (-1: there is none).
     */
    public void register(Context context, LoopState state, List<Integer> listenerPorts, int boundTlsPort) {
        loops.add(new Loop(context, state));
        ports = List.copyOf(listenerPorts);
        tlsPort = boundTlsPort;
    }

    public List<Loop> loops() {
        return loops;
    }

    /** The data plane's port: its first listener's (bound, when configured as 0), or -1 before start. */
    public int port() {
        List<Integer> bound = ports;
        return bound.isEmpty() ? -1 : bound.get(0);
    }

    /** Every listener's bound port, in the listeners' order; empty before start. */
    public List<Integer> ports() {
        return ports;
    }

    /** The TLS listener's bound port (the real one when configured as 0); -1 when there is none or before start. */
    public int tlsPort() {
        return tlsPort;
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
