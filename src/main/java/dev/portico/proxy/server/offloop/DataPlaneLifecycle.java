package dev.portico.proxy.server.offloop;

import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.RequestObserver;
import io.netty.channel.ChannelFuture;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Verticle;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The waiting half of the data plane's lifecycle: deploying each event loop's listener instances, closing the
 * listening sockets, waiting for in-flight requests, the final flush on every loop and the liveness probe all block
 * the calling thread, which is Quarkus' main or shutdown thread (or a health check's worker), never an event loop.
 * What to log about start and drain is the caller's ({@code DataPlaneServer}), so those lines keep their logger.
 */
public final class DataPlaneLifecycle {

    /** How long one loop's instance may take to bind its listeners. */
    private static final long DEPLOY_SECONDS = 30;
    /** How long closing one listening socket may take. */
    private static final long SOCKET_CLOSE_SECONDS = 5;
    /** How long the final flush of every loop's observer batches may take. */
    private static final long FLUSH_SECONDS = 5;
    /** How often the drain looks at the in-flight count. */
    private static final long DRAIN_POLL_MILLIS = 20;

    private static final Logger LOG = Logger.getLogger(DataPlaneLifecycle.class);

    /** One event loop's instance of every listener, as the lifecycle deploys, drains and flushes it. */
    public interface LoopInstance extends Verticle {

        /**
         * Starts closing this instance's listening sockets while its open connections keep being served. Called
         * off the loop.
         *
         * @return one future per listener, completed once its socket is closed; a null element for a socket that
         *         cannot be closed on its own (it then stays open until the instance stops)
         */
        List<ChannelFuture> stopAccepting();

        /** Runs on the instance's loop: lets every observer push out what this loop batched. */
        void flushObservers();

        /** Runs on the instance's loop: closes its tunnels (WebSocket connections), which accounts them. */
        void closeTunnels();

        /**
         * Tells the instance's open connections that no new request will be taken where the protocol can say so
         * (HTTP/2 GOAWAY; HTTP/1.1 says it with {@code Connection: close} on its next response). Called off the loop.
         */
        void announceDrain();
    }

    private final Vertx vertx;
    private final DataPlaneState state;
    private final List<LoopInstance> instances = new ArrayList<>();

    public DataPlaneLifecycle(Vertx vertx, DataPlaneState state) {
        this.vertx = vertx;
        this.state = state;
    }

    /** Deploys one loop's instance and waits until its listeners are bound; deploy loops in their index order. */
    public void deploy(LoopInstance instance) throws Exception {
        vertx.deployVerticle(instance, new DeploymentOptions())
                .toCompletionStage().toCompletableFuture().get(DEPLOY_SECONDS, TimeUnit.SECONDS);
        instances.add(instance);
    }

    /**
     * Closes every listening socket and waits for it. The instances of a listener share one socket: closing it
     * through the first instance closes it for all.
     *
     * @return false when a socket could not be closed on its own
     */
    public boolean stopAccepting() {
        if (instances.isEmpty()) {
            return true;
        }
        boolean closed = true;
        for (LoopInstance instance : instances) {
            instance.announceDrain();
        }
        for (ChannelFuture closing : instances.get(0).stopAccepting()) {
            try {
                closed &= closing != null && closing.await(SOCKET_CLOSE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closed = false;
            } catch (RuntimeException e) {
                closed = false;
            }
        }
        return closed;
    }

    /**
     * Waits until no request is in flight, or {@code grace} passed.
     *
     * @return the requests still in flight
     */
    public int awaitInFlight(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        int inFlight;
        while ((inFlight = state.inFlight()) > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(DRAIN_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return inFlight;
    }

    /**
     * Closes the tunnels left after the grace, then the final flush of every loop's observer batches, on the loops
     * themselves, then the observers' own stop.
     */
    public void flushObservers(RequestObserver[] observers) {
        List<CompletableFuture<Void>> flushed = new ArrayList<>();
        List<DataPlaneState.Loop> loops = state.loops();
        for (int i = 0; i < loops.size() && i < instances.size(); i++) {
            LoopInstance instance = instances.get(i);
            CompletableFuture<Void> done = new CompletableFuture<>();
            loops.get(i).context().runOnContext(v -> {
                // Tunnels outlive any grace (they end when a peer closes): after it they are closed, and their
                // exchanges accounted, so the final flush logs them.
                instance.closeTunnels();
                instance.flushObservers();
                done.complete(null);
            });
            flushed.add(done);
        }
        try {
            CompletableFuture.allOf(flushed.toArray(new CompletableFuture[0])).get(FLUSH_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("Not every event loop flushed its accounting at shutdown", e);
        }
        for (RequestObserver observer : observers) {
            try {
                observer.stop();
            } catch (RuntimeException e) {
                LOG.warn("An accounting observer failed to stop cleanly", e);
            }
        }
    }

    /** Whether every data-plane event loop runs a task within {@code timeout}, i.e. none is blocked. */
    public boolean loopsResponsive(Duration timeout) {
        List<CompletableFuture<Void>> pings = new ArrayList<>();
        for (DataPlaneState.Loop loop : state.loops()) {
            CompletableFuture<Void> ping = new CompletableFuture<>();
            loop.context().runOnContext(v -> ping.complete(null));
            pings.add(ping);
        }
        try {
            CompletableFuture.allOf(pings.toArray(new CompletableFuture[0]))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }
}
