package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.upstream.UpstreamSettings;
import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.quarkus.arc.All;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts the data plane after the first snapshot is loaded, one listener per event loop on Quarkus' Vert.x, and
 * stops it gracefully: stop accepting, let in-flight requests finish within the grace period, then close.
 */
@Singleton
public class DataPlaneServer {

    /** Runs after the snapshot loader ({@code SnapshotReloader}, priority 100). */
    public static final int STARTUP_PRIORITY = 200;

    private static final int RANDOM_SHARED_PORT = -8080;
    private static final Logger LOG = Logger.getLogger(DataPlaneServer.class);

    private final Vertx vertx;
    private final DataPlaneSettings config;
    private final UpstreamSettings upstreamSettings;
    private final SnapshotHolder snapshots;
    private final StatsRegistry stats;
    private final RequestObserver[] observers;
    private final DataPlaneState state = new DataPlaneState();
    private final List<DataPlaneVerticle> verticles = new ArrayList<>();
    private volatile boolean listening;
    private volatile boolean started;

    public DataPlaneServer(Vertx vertx, DataPlaneSettings config, UpstreamSettings upstreamSettings,
                           SnapshotHolder snapshots, StatsRegistry stats, @All List<RequestObserver> observers) {
        this.vertx = vertx;
        this.config = config;
        this.upstreamSettings = upstreamSettings;
        this.snapshots = snapshots;
        this.stats = stats;
        this.observers = observers.toArray(new RequestObserver[0]);
    }

    void start(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) throws Exception {
        DataPlaneSettings dataplane = config;
        int instances = dataplane.eventLoopCount();
        // Port 0 means "any free port". A negative port makes Vert.x bind one random port shared by every server
        // listening with that same negative number; Quarkus' own servers use -1, so pick a number of our own.
        int port = dataplane.port() == 0 ? RANDOM_SHARED_PORT : dataplane.port();
        UpstreamClients.Settings upstream = new UpstreamClients.Settings(upstreamSettings.maxConnections(),
                (int) Math.max(1, upstreamSettings.keepAliveTimeout().toSeconds()));
        for (RequestObserver observer : observers) {
            observer.start(instances);
        }
        DataPlaneVerticle.Services services = new DataPlaneVerticle.Services(dataplane, port, upstream, snapshots,
                stats, observers, state);
        snapshots.onPublish(this::broadcast);
        for (int i = 0; i < instances; i++) {
            DataPlaneVerticle verticle = new DataPlaneVerticle(services, i);
            vertx.deployVerticle(verticle, new DeploymentOptions())
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            verticles.add(verticle);
        }
        listening = true;
        started = true;
        LOG.infof("Data plane listening on %s:%d with %d event loops (%s transport)", dataplane.host(), state.port(),
                instances, vertx.isNativeTransportEnabled() ? "native epoll" : "NIO");
    }

    void stop(@Observes ShutdownEvent event) {
        if (!listening) {
            return;
        }
        listening = false;
        state.startDraining();
        // The instances share one listening socket: closing it through the first closes it for all.
        if (!verticles.isEmpty() && !verticles.get(0).stopAccepting()) {
            LOG.warn("Could not close the listening socket alone; draining with it open (responses ask clients to "
                    + "close their connections)");
        }
        long deadline = System.nanoTime() + config.shutdownGrace().toNanos();
        int inFlight;
        while ((inFlight = state.inFlight()) > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (inFlight > 0) {
            LOG.warnf("Data plane stopped with %d requests still in flight after the grace period", inFlight);
        } else {
            LOG.info("Data plane drained");
        }
        flushObservers();
    }

    /** Final flush of every loop's observer batches, on the loops themselves, then the observers' own stop. */
    private void flushObservers() {
        List<CompletableFuture<Void>> flushed = new ArrayList<>();
        List<DataPlaneState.Loop> loops = state.loops();
        for (int i = 0; i < loops.size() && i < verticles.size(); i++) {
            DataPlaneVerticle verticle = verticles.get(i);
            CompletableFuture<Void> done = new CompletableFuture<>();
            loops.get(i).context().runOnContext(v -> {
                verticle.flushObservers();
                done.complete(null);
            });
            flushed.add(done);
        }
        try {
            CompletableFuture.allOf(flushed.toArray(new CompletableFuture[0])).get(5, TimeUnit.SECONDS);
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

    /** Whether every listener is bound and the server is not shutting down. */
    public boolean isListening() {
        return listening;
    }

    /** Whether start-up completed (stays true while shutting down). */
    public boolean isStarted() {
        return started;
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

    /** The bound port (useful when configured as 0), or -1 before start. */
    public int port() {
        return state.port();
    }

    public int inFlight() {
        return state.inFlight();
    }

    private void broadcast(RoutingSnapshot snapshot) {
        for (DataPlaneState.Loop loop : state.loops()) {
            loop.context().runOnContext(v -> loop.state().get(SnapshotAdoption.PER_LOOP).adopt(snapshot));
        }
    }
}
