package dev.portico.proxy.upstream.health;

import dev.portico.proxy.core.outcome.CircuitReport;
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
 * {@link #PERIOD_MILLIS} it ends ejections whose time is up, ejects by failure ratio, compares each upstream's state now
 * with the one last shown, logs a change and tells the listeners (the {@code upstream} events); and it logs and tells
 * the transitions of the vhosts' circuit breakers (the {@code circuit} events), turning half-open those whose
 * cool-down is over. One timer on one context for every vhost: the hot path only reads volatile fields and never
 * tells anyone.
 */
public final class HealthSweeper {

    private static final Logger LOG = Logger.getLogger(HealthSweeper.class);
    static final long PERIOD_MILLIS = 200;

    private final Vertx vertx;
    private final List<Consumer<UpstreamReport.Transition>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<CircuitReport.Transition>> circuitListeners = new CopyOnWriteArrayList<>();
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

    public void onCircuitTransition(Consumer<CircuitReport.Transition> listener) {
        circuitListeners.add(listener);
    }

    public List<VhostUpstreams> vhosts() {
        return vhosts;
    }

    void sweep() {
        long now = System.nanoTime();
        for (VhostUpstreams vhost : vhosts) {
            List<UpstreamStatus> statuses = vhost.statuses();
            for (UpstreamStatus status : statuses) {
                status.returnIfDue(now);
                status.judgeFailureRatio(now);
            }
            UpstreamState[] states = VhostUpstreams.states(statuses, now);
            for (int i = 0; i < states.length; i++) {
                UpstreamStatus status = statuses.get(i);
                UpstreamState before = status.shown();
                if (states[i] != before) {
                    String cause = status.cause(states[i], now, before);
                    status.show(states[i], cause);
                    UpstreamReport.Transition transition = new UpstreamReport.Transition(vhost.name(),
                            status.upstream(), before, states[i], cause, Instant.now());
                    LOG.infof("vhost %s upstream %s: %s -> %s (%s)", transition.vhost(), transition.upstream(),
                            transition.from().code(), transition.to().code(), transition.reason());
                    tell(listeners, transition);
                }
            }
            CircuitBreaker breaker = vhost.breaker();
            if (breaker != null) {
                breaker.tick(now);
                breaker.drainTransitions(vhost.name(), transition -> {
                    LOG.infof("vhost %s circuit breaker: %s -> %s (%s)", transition.vhost(), transition.from().code(),
                            transition.to().code(), transition.reason());
                    tell(circuitListeners, transition);
                });
            }
            vhost.dropDrained();
        }
    }

    private static <T> void tell(List<Consumer<T>> to, T transition) {
        for (Consumer<T> listener : to) {
            try {
                listener.accept(transition);
            } catch (RuntimeException e) {
                LOG.warnf(e, "a transition listener failed");
            }
        }
    }
}
