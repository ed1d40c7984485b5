package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.outcome.UpstreamReport;
import dev.portico.proxy.core.outcome.UpstreamState;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Turns what the checks, the ejections and the origins' passive health say into transitions, told once each: every
 * {@link #PERIOD_MILLIS} it compares each upstream's state now with the one last shown, logs a change, tells the
 * listeners (the {@code upstream} events) and ends ejections whose time is up. One timer on one context for every
 * vhost: the hot path only reads volatile fields and never tells anyone.
 */
public final class HealthSweeper {

    private static final Logger LOG = Logger.getLogger(HealthSweeper.class);
    static final long PERIOD_MILLIS = 200;

    private final Vertx vertx;
    private final List<Consumer<UpstreamReport.Transition>> listeners = new CopyOnWriteArrayList<>();
    private volatile List<VhostUpstreams> vhosts = List.of();
    private boolean started;

    public HealthSweeper(Vertx vertx) {
        this.vertx = vertx;
    }

    /** The vhosts of the snapshot being published; their bindings are committed first. Compile thread only. */
    public void track(List<VhostUpstreams> published) {
        for (VhostUpstreams vhost : published) {
            vhost.commit();
        }
        vhosts = List.copyOf(published);
        if (!started) {
            started = true;
            vertx.getOrCreateContext().runOnContext(v -> vertx.setPeriodic(PERIOD_MILLIS, id -> sweep()));
        }
    }

    public void onTransition(Consumer<UpstreamReport.Transition> listener) {
        listeners.add(listener);
    }

    public List<VhostUpstreams> vhosts() {
        return vhosts;
    }

    void sweep() {
        long now = System.nanoTime();
        for (VhostUpstreams vhost : vhosts) {
            for (UpstreamStatus status : vhost.statuses()) {
                status.returnIfDue(now);
                UpstreamState before = status.shown();
                UpstreamState state = status.current(now);
                if (state != before) {
                    String cause = status.cause(state, now, before);
                    status.show(state, cause);
                    tell(new UpstreamReport.Transition(vhost.name(), status.upstream(), before, state, cause,
                            Instant.now()));
                }
            }
            vhost.dropDrained();
        }
    }

    private void tell(UpstreamReport.Transition transition) {
        LOG.infof("vhost %s upstream %s: %s -> %s (%s)", transition.vhost(), transition.upstream(),
                transition.from().code(), transition.to().code(), transition.reason());
        for (Consumer<UpstreamReport.Transition> listener : listeners) {
            try {
                listener.accept(transition);
            } catch (RuntimeException e) {
                LOG.warnf(e, "an upstream transition listener failed");
            }
        }
    }
}
