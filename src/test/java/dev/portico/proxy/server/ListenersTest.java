package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.core.DataPlaneState;
import dev.portico.proxy.core.RequestObserver;
import dev.portico.proxy.core.StatsRegistry;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.server.offloop.DataPlaneLifecycle;
import dev.portico.proxy.upstream.pool.UpstreamClients;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A loop's instance with two listeners, beside the data plane Quarkus started: each listener gets its own port (both
 * configured as 0), each hands its requests to the same pipeline, and stopping accepting closes every one of them.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ListenersTest {

    private static final String UNKNOWN_HOST = "GET / HTTP/1.1\r\nHost: no-such-vhost.test\r\nConnection: close\r\n\r\n";

    @Inject
    Vertx vertx;
    @Inject
    DataPlaneSettings settings;
    @Inject
    SnapshotHolder snapshots;
    @Inject
    StatsRegistry stats;

    @Test
    void everyListenerServesThePipelineAndStopsAcceptingWhenTheDataPlaneDrains() throws Exception {
        DataPlaneState state = new DataPlaneState();
        DataPlaneLifecycle lifecycle = new DataPlaneLifecycle(vertx, state);
        List<Listener> listeners = List.of(Listener.http1Cleartext("first", "127.0.0.1", 0),
                Listener.http1Cleartext("second", "127.0.0.1", 0));
        DataPlaneVerticle instance = new DataPlaneVerticle(new DataPlaneVerticle.Services(settings, listeners,
                new UpstreamClients.Settings(4, 4), snapshots, stats, new RequestObserver[0], state,
                new ConnectionGate(0, stats.connectionRefusals())), 0);
        lifecycle.deploy(instance);
        try {
            List<Integer> ports = state.ports();
            assertEquals(2, ports.size(), "one bound port per listener: " + ports);
            assertNotEquals(ports.get(0), ports.get(1), "each listener has a port of its own: " + ports);
            for (int port : ports) {
                String reply = RawHttp.exchange(port, UNKNOWN_HOST);
                assertEquals(404, RawHttp.status(reply), "the pipeline answers on port " + port + ": " + reply);
                assertTrue(reply.contains("vhost_not_found"), reply);
            }

            assertTrue(lifecycle.stopAccepting(), "every listening socket closes on its own");

            for (int port : ports) {
                Eventually.within(Duration.ofSeconds(5), () -> assertThrows(IOException.class,
                        () -> new Socket(InetAddress.getLoopbackAddress(), port).close(),
                        "listener on port " + port + " no longer accepts"));
            }
        } finally {
            vertx.undeploy(instance.deploymentID()).toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        }
    }
}
