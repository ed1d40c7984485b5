package dev.portico.proxy.server;

import dev.portico.testing.PostgresResource;
import io.netty.channel.Channel;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data plane's listening sockets accept on the event loops, not on Vert.x's acceptor thread, and Vert.x keeps its
 * acceptor for the servers bound afterwards and for its own shutdown.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class AcceptOnEventLoopsTest {

    @Inject
    DataPlaneServer dataPlane;
    @Inject
    Vertx vertx;

    @Test
    void everyListeningSocketAcceptsOnAnEventLoop() throws Exception {
        List<Channel> sockets = dataPlane.listeningSockets();
        assertFalse(sockets.isEmpty(), "the data plane listens");
        for (Channel socket : sockets) {
            assertNotNull(socket, "every listening socket is reachable");
            String thread = socket.eventLoop().submit(() -> Thread.currentThread().getName()).get(5, TimeUnit.SECONDS);
            assertTrue(thread.startsWith("vert.x-eventloop-thread"), socket.localAddress() + " accepts on " + thread);
        }
        VertxInternal internal = (VertxInternal) vertx;
        assertNotSame(internal.getEventLoopGroup(), internal.getAcceptorEventLoopGroup(),
                "Vert.x has its acceptor back once the data plane bound");
    }
}
