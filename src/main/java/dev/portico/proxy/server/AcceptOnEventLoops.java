package dev.portico.proxy.server;

import io.netty.channel.EventLoopGroup;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxImpl;
import org.jboss.logging.Logger;

import java.lang.reflect.Field;

/**
 * Lets the data plane's listening sockets accept on the event loops that serve the connections, as an nginx worker
 * does, instead of on Vert.x's acceptor thread. Vert.x 4 registers every server socket on one acceptor thread of its
 * own, which hands each accepted connection to an event loop: a thread wake-up and two context switches per
 * connection. With one event loop per core that thread shares a core with a loop; under short TLS connections it took
 * 12% of Portico's CPU (README, TLS). Accepting on a loop, the connection is registered on the same thread when the
 * balancer picks that loop, and otherwise handed over as before, from a loop instead of the acceptor.
 *
 * <p>Vert.x offers no option for it, so the acceptor group is swapped for the event loop group while the data
 * plane's servers bind, and put back afterwards, so that Vert.x shuts its own acceptor down on close and other
 * servers (the management interface) keep the acceptor. Tied to Vert.x 4.5 internals: when they change, the data
 * plane accepts on the acceptor thread, as it did before.
 */
@RegisterForReflection(targets = VertxImpl.class, fields = true)
final class AcceptOnEventLoops implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AcceptOnEventLoops.class);

    private final Vertx vertx;
    private final Field acceptors;
    private final Object original;

    private AcceptOnEventLoops(Vertx vertx, Field acceptors, Object original) {
        this.vertx = vertx;
        this.acceptors = acceptors;
        this.original = original;
    }

    /** Until {@link #close()}, servers that bind on {@code vertx} accept on its event loops. */
    static AcceptOnEventLoops whileBinding(Vertx vertx) {
        if (!(vertx instanceof VertxImpl impl)) {
            LOG.debugf("Accepting on Vert.x's acceptor thread: %s is not Vert.x's own implementation", vertx);
            return new AcceptOnEventLoops(vertx, null, null);
        }
        try {
            Field field = VertxImpl.class.getDeclaredField("acceptorEventLoopGroup");
            field.setAccessible(true);
            Object original = field.get(impl);
            EventLoopGroup loops = impl.getEventLoopGroup();
            field.set(impl, loops);
            return new AcceptOnEventLoops(vertx, field, original);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debugf(e, "Accepting on Vert.x's acceptor thread: its acceptor group cannot be replaced");
            return new AcceptOnEventLoops(vertx, null, null);
        }
    }

    /** Puts Vert.x's acceptor back, for the servers that bind later and for Vert.x's own shutdown. */
    @Override
    public void close() {
        if (acceptors == null) {
            return;
        }
        try {
            acceptors.set(vertx, original);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warnf(e, "Vert.x's acceptor group could not be put back; Vert.x will not shut it down on close");
        }
    }
}
