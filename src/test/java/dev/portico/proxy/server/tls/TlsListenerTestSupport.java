package dev.portico.proxy.server.tls;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.TlsListenerInstance;
import dev.portico.testing.DataPlaneTestSupport;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Starts TLS listeners on the engine a parameterised test runs on, and stops them after each test. */
abstract class TlsListenerTestSupport extends DataPlaneTestSupport {

    @Inject
    Vertx vertx;
    @Inject
    DataPlaneSettings settings;
    @Inject
    SnapshotHolder snapshots;
    @Inject
    StatsRegistry stats;

    private final List<TlsListenerInstance> listeners = new ArrayList<>();

    @AfterEach
    void stopListeners() throws Exception {
        for (TlsListenerInstance listener : listeners) {
            listener.close();
        }
        listeners.clear();
    }

    /** The port of a TLS listener presenting {@code certificates} with {@code engine} under {@code profile}. */
    protected int listen(TlsEngine engine, CipherProfile profile, TlsTable certificates) throws Exception {
        return listen(TlsTermination.fixed(certificates, engine.resolve(), profile, Duration.ofSeconds(10)));
    }

    protected int listen(TlsTermination tls) throws Exception {
        TlsListenerInstance listener = TlsListenerInstance.start(vertx, settings, snapshots, stats, tls);
        listeners.add(listener);
        return listener.port();
    }

    protected int listen(TlsEngine engine, TlsTable certificates) throws Exception {
        return listen(engine, CipherProfile.INTERMEDIATE, certificates);
    }
}
