package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.upstream.UpstreamSettings;
import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.offloop.DataPlaneLifecycle;
import dev.portico.proxy.server.tls.TlsEngine;
import dev.portico.proxy.server.tls.TlsListenerSettings;
import dev.portico.proxy.server.tls.TlsTermination;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import io.netty.channel.Channel;
import io.quarkus.arc.All;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Starts the data plane after the first snapshot is loaded, an instance of every {@link Listener} on each event loop
 * of Quarkus' Vert.x, and stops it gracefully: stop accepting, let in-flight requests finish within the grace period,
 * then close. The waits themselves are {@link DataPlaneLifecycle}'s, off the event loops.
 */
@Singleton
public class DataPlaneServer {

    /** Runs after the snapshot loader ({@code SnapshotReloader}, priority 100). */
    public static final int STARTUP_PRIORITY = 200;

    private static final Logger LOG = Logger.getLogger(DataPlaneServer.class);

    private final Vertx vertx;
    private final DataPlaneSettings config;
    private final UpstreamSettings upstreamSettings;
    private final SnapshotHolder snapshots;
    private final TlsListenerSettings tlsSettings;
    private final StatsRegistry stats;
    private final RequestObserver[] observers;
    private final DataPlaneState state = new DataPlaneState();
    private final DataPlaneLifecycle lifecycle;
    private final List<DataPlaneVerticle> deployed = new CopyOnWriteArrayList<>();
    private List<Listener> listeners = List.of();
    private volatile boolean listening;
    private volatile boolean started;

    public DataPlaneServer(Vertx vertx, DataPlaneSettings config, UpstreamSettings upstreamSettings,
                           SnapshotHolder snapshots, TlsListenerSettings tlsSettings,
                           StatsRegistry stats, @All List<RequestObserver> observers) {
        this.vertx = vertx;
        this.config = config;
        this.upstreamSettings = upstreamSettings;
        this.snapshots = snapshots;
        this.tlsSettings = tlsSettings;
        this.stats = stats;
        this.observers = observers.toArray(new RequestObserver[0]);
        this.lifecycle = new DataPlaneLifecycle(vertx, state);
    }

    void start(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) throws Exception {
        DataPlaneSettings dataplane = config;
        int instances = dataplane.eventLoopCount();
        UpstreamClients.Settings upstream = new UpstreamClients.Settings(upstreamSettings.maxConnections(),
                (int) Math.max(1, upstreamSettings.keepAliveTimeout().toSeconds()));
        for (RequestObserver observer : observers) {
            observer.start(instances);
        }
        listeners = Listener.of(dataplane, this::tlsTermination);
        DataPlaneVerticle.Services services = new DataPlaneVerticle.Services(dataplane, listeners,
                upstream, snapshots, stats, observers, state,
                new ConnectionGate(dataplane.maxConnections(), stats.connectionRefusals()));
        snapshots.onPublish(this::broadcast);
        try (AcceptOnEventLoops accepting = AcceptOnEventLoops.whileBinding(vertx)) {
            for (int i = 0; i < instances; i++) {
                DataPlaneVerticle instance = new DataPlaneVerticle(services, i);
                lifecycle.deploy(instance);
                deployed.add(instance);
            }
        }
        listening = true;
        started = true;
        LOG.infof("Data plane listening on %s:%s with %d event loops (%s transport)", dataplane.host(),
                state.ports(), instances, vertx.isNativeTransportEnabled() ? "native epoll" : "NIO");
    }

    /** The listening sockets of every listener; for tests. */
    List<Channel> listeningSockets() {
        return deployed.isEmpty() ? List.of() : deployed.get(0).listeningSockets();
    }

    /**
     * How the TLS listener terminates TLS, presenting the snapshots' certificates: resolved here, at start-up, as the
     * engine's native library loads.
     */
    private TlsTermination tlsTermination() {
        TlsEngine engine = tlsSettings.engine().resolve();
        LOG.infof("TLS engine: %s", engine == TlsEngine.OPENSSL ? "OpenSSL (BoringSSL, netty-tcnative)" : "JDK");
        return new TlsTermination(null, engine, tlsSettings.profile(), tlsSettings.handshakeTimeout(),
                defaultCertificateId());
    }

    private String defaultCertificateId() {
        return tlsSettings.defaultCertificate().map(String::strip).map(String::toLowerCase).orElse(null);
    }

    /**
     * The certificates the TLS listener presents with the snapshot in service, its default certificate included;
     * empty when there is no TLS listener. For what watches expiry (metrics, status); any thread.
     */
    public TlsTable presentedCertificates() {
        return config.tlsPort() < 0 ? TlsTable.EMPTY : snapshots.current().tls().withDefault(defaultCertificateId());
    }

    void stop(@Observes ShutdownEvent event) {
        if (!listening) {
            return;
        }
        listening = false;
        state.startDraining();
        if (!lifecycle.stopAccepting()) {
            LOG.warn("Could not close the listening socket alone; draining with it open (responses ask clients to "
                    + "close their connections)");
        }
        int inFlight = lifecycle.awaitInFlight(config.shutdownGrace());
        if (inFlight > 0) {
            LOG.warnf("Data plane stopped with %d requests still in flight after the grace period", inFlight);
        } else {
            LOG.info("Data plane drained");
        }
        lifecycle.flushObservers(observers);
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
        return lifecycle.loopsResponsive(timeout);
    }

    /** The bound port (useful when configured as 0), or -1 before start. */
    public int port() {
        return state.port();
    }

    /** The bound port of the TLS listener, or -1 when there is none (or before start). */
    public int tlsPort() {
        List<Integer> ports = state.ports();
        return config.tlsPort() < 0 || ports.size() < 2 ? -1 : ports.get(1);
    }

    public int inFlight() {
        return state.inFlight();
    }

    private void broadcast(RoutingSnapshot snapshot) {
        // On the publishing thread, in publishing order: every loop's server of a listener shares what it presents.
        for (Listener listener : listeners) {
            if (listener.tls() != null) {
                listener.tls().presentFrom(snapshot);
            }
        }
        for (DataPlaneState.Loop loop : state.loops()) {
            loop.context().runOnContext(v -> loop.state().get(SnapshotAdoption.PER_LOOP).adopt(snapshot));
        }
    }
}
