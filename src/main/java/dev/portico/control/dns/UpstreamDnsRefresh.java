package dev.portico.control.dns;

import dev.portico.control.snapshot.SnapshotReloader;
import dev.portico.proxy.route.SnapshotCompiler;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.proxy.route.UpstreamResolver;
import dev.portico.vhost.UpstreamSpec;
import dev.portico.vhost.VhostSpec;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Keeps the upstreams' addresses current: every second it has the resolver ask again for the host names whose
 * answers are due ({@link UpstreamResolver}: by TTL, bounded), and when any name's addresses changed it recompiles
 * the published configuration with them, so a name with several addresses is several upstreams and a changed record
 * moves traffic within its TTL, without a configuration change and without touching the database.
 */
@Singleton
public class UpstreamDnsRefresh {

    private static final Logger LOG = Logger.getLogger(UpstreamDnsRefresh.class);
    /** Longer than any query may take (the resolver times each out), so a round always ends. */
    private static final long ROUND_LIMIT_SECONDS = 30;

    private final UpstreamResolver resolver;
    private final SnapshotCompiler compiler;
    private final SnapshotHolder holder;
    private final SnapshotReloader reloader;
    private volatile boolean stopping;

    public UpstreamDnsRefresh(UpstreamResolver resolver, SnapshotCompiler compiler, SnapshotHolder holder,
                              SnapshotReloader reloader) {
        this.resolver = resolver;
        this.compiler = compiler;
        this.holder = holder;
        this.reloader = reloader;
    }

    @Scheduled(every = "1s", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        if (stopping || !holder.hasPublished()) {
            return;
        }
        Set<String> names = new HashSet<>();
        for (VhostSpec spec : holder.current().specs()) {
            for (UpstreamSpec upstream : spec.upstreams()) {
                names.add(upstream.host());
            }
        }
        boolean changed;
        try {
            changed = resolver.refresh(names).get(ROUND_LIMIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("Resolving upstream host names failed: %s", e.getMessage());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (changed) {
            compiler.useAddresses(resolver.addresses());
            if (reloader.recompile()) {
                LOG.infof("Upstream addresses changed: %s", resolver.addresses());
            }
        }
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }
}
