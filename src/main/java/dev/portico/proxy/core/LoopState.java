package dev.portico.proxy.core;

import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.vertx.core.Context;
import io.vertx.core.WorkerExecutor;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one event loop owns: its upstream connection pools, its in-flight count. Only its
 * own thread writes here, so nothing on the request path takes a lock or contends on an atomic.
 */
public final class LoopState {

    private static final Logger LOG = Logger.getLogger(LoopState.class);

    private final int index;
    private final UpstreamClients upstreams;
    private final DataPlaneState shared;
    private final Context context;
    private final WorkerExecutor fileWorkers;
    private final long clientBodyTimeoutMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private RoutingSnapshot adopted;

    public LoopState(int index, UpstreamClients upstreams, DataPlaneState shared, Context context,
                     WorkerExecutor fileWorkers, long clientBodyTimeoutMillis) {
        this.index = index;
        this.upstreams = upstreams;
        this.shared = shared;
        this.context = context;
        this.fileWorkers = fileWorkers;
        this.clientBodyTimeoutMillis = clientBodyTimeoutMillis;
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

    public UpstreamClients upstreams() {
        return upstreams;
    }

    /** Whether shutdown has begun: responses then ask clients to close their connections. */
    public boolean draining() {
        return shared.draining();
    }

    int inFlight() {
        return inFlight.get();
    }

    public void requestStarted(RoutingSnapshot snapshot) {
        inFlight.lazySet(inFlight.get() + 1);
        if (snapshot != adopted) {
            adopt(snapshot);
        }
    }

    public void requestEnded() {
        inFlight.lazySet(inFlight.get() - 1);
    }

    /**
     * Switches this loop to a new snapshot: pools of removed upstreams retired. (Round-robin cursors are per vhost
     * and outlive snapshots: {@code UpstreamRuntime}.)
     */
    public void adopt(RoutingSnapshot snapshot) {
        if (snapshot == adopted) {
            return;
        }
        adopted = snapshot;
        upstreams.retainOnly(snapshot.poolKeys());
    }

    public void logInternalError(Exchange exchange, Throwable error) {
        LOG.errorf(error, "request %s: internal error", exchange == null ? "-" : exchange.requestId());
    }
}
