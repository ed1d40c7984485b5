package dev.portico.proxy.upstream.health;

import dev.portico.proxy.upstream.balance.UpstreamTarget;
import dev.portico.vhost.HealthCheckSpec;
import io.vertx.core.Vertx;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The running health checkers, one per upstream and check settings (not per vhost, not per event loop), following the
 * snapshots: a compile asks for the checkers its vhosts need, and only once it succeeded are the new ones started and
 * those no vhost needs any more stopped. Used by the one compile at a time.
 */
public final class HealthCheckers {

    private final Vertx vertx;
    private Map<List<Object>, HealthChecker> running = new HashMap<>();
    private Map<List<Object>, HealthChecker> wanted = new HashMap<>();

    public HealthCheckers(Vertx vertx) {
        this.vertx = vertx;
    }

    /** A compile begins: it will say which checkers it needs. */
    public void begin() {
        wanted = new HashMap<>();
    }

    /**
     * The checker for {@code target} with {@code spec}: the running one, or a new one (started at {@link #commit()})
     * that starts from {@code seed} ({@link VhostUpstreams#seedOf}).
     */
    public HealthChecker use(UpstreamTarget target, String healthKey, HealthCheckSpec spec, HealthChecker.Seed seed) {
        List<Object> key = HealthChecker.key(healthKey, spec);
        HealthChecker checker = wanted.get(key);
        if (checker == null) {
            checker = running.get(key);
            if (checker == null) {
                checker = new HealthChecker(vertx, target, spec, seed);
            }
            wanted.put(key, checker);
        }
        return checker;
    }

    /** The compile succeeded: new checkers start, unneeded ones stop. */
    public void commit() {
        for (Map.Entry<List<Object>, HealthChecker> entry : running.entrySet()) {
            if (!wanted.containsKey(entry.getKey())) {
                entry.getValue().stop();
            }
        }
        for (Map.Entry<List<Object>, HealthChecker> entry : wanted.entrySet()) {
            if (!running.containsKey(entry.getKey())) {
                entry.getValue().start();
            }
        }
        running = wanted;
        wanted = new HashMap<>();
    }

    /** How many checkers run: for tests and diagnostics. */
    public int running() {
        return running.size();
    }
}
