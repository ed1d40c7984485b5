package dev.portico.proxy.core;

import io.vertx.core.Context;
import io.vertx.core.WorkerExecutor;
import org.jboss.logging.Logger;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one event loop owns: its in-flight count and each feature's per-loop state ({@link Slot}: the upstream
 * connection pools, the adopted snapshot). Only its own thread writes here, so nothing on the request path takes a
 * lock or contends on an atomic.
 */
public final class LoopState {

    private static final Logger LOG = Logger.getLogger(LoopState.class);

    private final int index;
    private static final AtomicInteger SLOTS = Slot.counter(LoopState.class);
    private Object[] locals = new Object[SLOTS.get()];
    private final DataPlaneState shared;
    private final Context context;
    private final WorkerExecutor fileWorkers;
    private final long clientBodyTimeoutMillis;
    private final long clientSendTimeoutMillis;
    private final AtomicInteger inFlight = new AtomicInteger();

    public LoopState(int index, DataPlaneState shared, Context context,
                     WorkerExecutor fileWorkers, long clientBodyTimeoutMillis, long clientSendTimeoutMillis) {
        this.index = index;
        this.shared = shared;
        this.context = context;
        this.fileWorkers = fileWorkers;
        this.clientBodyTimeoutMillis = clientBodyTimeoutMillis;
        this.clientSendTimeoutMillis = clientSendTimeoutMillis;
    }

    /** The loop's Vert.x context: how other threads hand work to this loop. */
    public Context context() {
        return context;
    }

    /** This loop's number, 0 to the number of loops - 1: its slot in per-loop statistics and buffers. */
    public int index() {
        return index;
    }

    /**
     * The worker pool for blocking file-system lookups of static files, shared by all loops; its results come back
     * on this loop's context.
     */
    public WorkerExecutor fileWorkers() {
        return fileWorkers;
    }

    /** Longest wait for the next piece of a request body being read ({@code portico.dataplane.client-body-timeout}). */
    public long clientBodyTimeoutMillis() {
        return clientBodyTimeoutMillis;
    }

    /**
     * Longest the client may take nothing of a response body that waits for it
     * ({@code portico.dataplane.client-send-timeout}); 0 for no limit.
     */
    public long clientSendTimeoutMillis() {
        return clientSendTimeoutMillis;
    }

    /** This loop's state of the given kind, or null when none was put. Call on this loop only. */
    @SuppressWarnings("unchecked")
    public <T> T get(Slot<LoopState, T> key) {
        int slot = key.index();
        return slot < locals.length ? (T) locals[slot] : null;
    }

    /** Sets this loop's state of the given kind; at start, on this loop. */
    public <T> void put(Slot<LoopState, T> key, T value) {
        int slot = key.index();
        if (slot >= locals.length) {
            locals = Arrays.copyOf(locals, SLOTS.get());
        }
        locals[slot] = value;
    }

    /** The TLS listener's bound port, for URLs that send clients there; -1 when there is none. */
    public int tlsPort() {
        return shared.tlsPort();
    }

    /** Requests in flight on every loop of this instance, this one's included (each loop's count read once). */
    public int inFlightEverywhere() {
        return shared.inFlight();
    }

    /** Whether shutdown has begun: responses then ask clients to close their connections. */
    public boolean draining() {
        return shared.draining();
    }

    int inFlight() {
        return inFlight.get();
    }

    public void requestStarted() {
        inFlight.lazySet(inFlight.get() + 1);
    }

    public void requestEnded() {
        inFlight.lazySet(inFlight.get() - 1);
    }

    public void logInternalError(Exchange exchange, Throwable error) {
        LOG.errorf(error, "request %s: internal error", exchange == null ? "-" : exchange.requestId());
    }
}
