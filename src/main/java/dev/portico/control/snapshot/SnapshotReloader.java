package dev.portico.control.snapshot;

import dev.portico.control.database.DatabaseReachability;
import dev.portico.proxy.route.RoutingSnapshot;
import dev.portico.proxy.route.OcspStaples;
import dev.portico.proxy.route.SessionTicketKeys;
import dev.portico.proxy.route.SnapshotCompiler;
import dev.portico.proxy.route.SnapshotHolder;
import dev.portico.vhost.CompileException;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Rebuilds the routing snapshot from the database and publishes it: at start, after every committed API change,
 * when another replica NOTIFYs, and on a slow poll as a safety net. A build that fails keeps the old snapshot and
 * is reported in {@code /api/v1/status}. Runs on worker threads only.
 */
@Singleton
public class SnapshotReloader {

    /** Before the data plane starts listening ({@code DataPlaneServer}, priority 200). */
    public static final int STARTUP_PRIORITY = 100;

    private static final Logger LOG = Logger.getLogger(SnapshotReloader.class);

    private final VhostSource source;
    private final SnapshotCompiler compiler;
    private final SnapshotHolder holder;
    private final DatabaseReachability database;
    private final ConfigurationWriteTimings timings;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    private volatile boolean stopping;
    private volatile String certificateProblem;
    private volatile SessionTicketKeys ticketKeys = SessionTicketKeys.NONE;
    private volatile OcspStaples staples = OcspStaples.NONE;
    /** What the published snapshot was compiled from, for {@link #recompile}; null before the first publish. */
    private VhostSource.Loaded published;

    public SnapshotReloader(VhostSource source, SnapshotCompiler compiler, SnapshotHolder holder,
                            DatabaseReachability database, ConfigurationWriteTimings timings) {
        this.database = database;
        this.timings = timings;
        this.source = source;
        this.compiler = compiler;
        this.holder = holder;
    }

    void loadAtStart(@Observes @Priority(STARTUP_PRIORITY) StartupEvent event) {
        if (!reload()) {
            LOG.errorf("The first routing snapshot could not be built: %s. The data plane will not be ready until a "
                    + "reload succeeds.", lastError);
        }
    }

    void stop(@Observes io.quarkus.runtime.ShutdownEvent event) {
        stopping = true;
    }

    /** Changes made on other replicas during the outage were not NOTIFYed to this one: catch up at once. */
    void catchUp(@Observes DatabaseReachability.Recovered recovered) {
        if (!stopping) {
            reload();
        }
    }

    /**
     * Reloads unless the published snapshot is already at {@code version} or newer. Checked again under the lock:
     * API writes that commit while a reload runs wait for it, and its successor reads every commit made so far, so
     * one reload serves them all instead of one full read and compile of every vhost per waiting writer (under
     * churn those queued reloads were most of a write's latency).
     */
    public void reloadAtLeast(long version) {
        if (publishedAtLeast(version)) {
            return;
        }
        lock.lock();
        try {
            if (!publishedAtLeast(version)) {
                reload();
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean publishedAtLeast(long version) {
        return holder.hasPublished() && holder.current().version() >= version;
    }

    /**
     * Builds and publishes a snapshot of the current database state.
     *
     * @return whether a snapshot at the database's version is now published
     */
    public boolean reload() {
        lock.lock();
        try {
            VhostSource.Loaded loaded;
            long reading = System.nanoTime();
            try {
                loaded = source.load();
            } catch (CompileException e) {
                database.reportReachable();
                fail(e.getMessage());
                return false;
            } catch (RuntimeException e) {
                String message = "cannot read the configuration: " + rootMessage(e);
                if (database.reportFailure("a snapshot reload", e)) {
                    // The outage is logged once, by the reachability; this reload is simply not done.
                    remember(message);
                } else {
                    fail(message);
                }
                return false;
            }
            database.reportReachable();
            timings.since(ConfigurationWriteTimings.Phase.RELOAD_READ, reading);
            if (holder.hasPublished() && holder.current().version() >= loaded.version()) {
                clearError(); // the served snapshot is the database's: nothing is failing
                return true;
            }
            RoutingSnapshot snapshot;
            long compiling = System.nanoTime();
            try {
                snapshot = compiler.compile(loaded.version(), loaded.vhosts(), loaded.tls());
            } catch (RuntimeException e) {
                fail(e instanceof CompileException ? e.getMessage() : "compiling failed: " + rootMessage(e));
                return false;
            }
            publishWithClockState(snapshot);
            timings.since(ConfigurationWriteTimings.Phase.RELOAD_COMPILE, compiling);
            published = loaded;
            certificateProblem = loaded.certificateProblem();
            if (certificateProblem != null) {
                LOG.errorf("Snapshot version %d serves without some certificates: %s", snapshot.version(),
                        certificateProblem);
            }
            clearError();
            LOG.infof("Published routing snapshot version %d with %d vhosts", snapshot.version(),
                    snapshot.vhosts().size());
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes {@code keys} the TLS listeners' session ticket keys, in this and every later snapshot: the published
     * snapshot is published again with them (same version, nothing re-read), since keys rotate on the clock and
     * not with the configuration.
     */
    public void useTicketKeys(SessionTicketKeys keys) {
        lock.lock();
        try {
            ticketKeys = keys;
            republish();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes {@code responses} the OCSP responses stapled from this snapshot on, as {@link #useTicketKeys} does for
     * keys: they are refreshed on the clock, not with the configuration.
     */
    public void useStaples(OcspStaples responses) {
        lock.lock();
        try {
            staples = responses;
            republish();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Compiles the published configuration again, without reading the database, and publishes it under the same
     * version: for what changes beside the configuration and reshapes the compiled vhosts (the addresses DNS gives
     * for upstream host names). Nothing happens before the first publish, which compiles with them anyway.
     *
     * @return whether a snapshot was published
     */
    public boolean recompile() {
        lock.lock();
        try {
            VhostSource.Loaded loaded = published;
            if (loaded == null || stopping) {
                return false;
            }
            RoutingSnapshot snapshot;
            try {
                snapshot = compiler.compile(holder.current().version(), loaded.vhosts(), loaded.tls());
            } catch (RuntimeException e) {
                LOG.errorf("Recompiling snapshot version %d failed: %s", holder.current().version(), rootMessage(e));
                return false;
            }
            publishWithClockState(snapshot);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Publishes the current snapshot again with the ticket keys and staples in use, if they changed; under the lock. */
    private void republish() {
        if (holder.hasPublished()) {
            publishWithClockState(holder.current());
        }
    }

    /**
     * Publishes {@code snapshot} with what changes on the clock rather than with the configuration (session ticket
     * keys, OCSP staples), unless that is the snapshot already published; under the lock.
     */
    private void publishWithClockState(RoutingSnapshot snapshot) {
        RoutingSnapshot complete = snapshot.withTicketKeys(ticketKeys).withStaples(staples);
        if (!holder.hasPublished() || complete != holder.current()) {
            holder.publish(complete);
        }
    }

    @Scheduled(every = "${portico.reload.poll-interval}", delayed = "${portico.reload.poll-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        if (stopping) {
            return;
        }
        if (!database.reachable()) {
            return; // the reachability's own, quicker probe finds out when it is back, and then a reload runs
        }
        try {
            long version = source.currentVersion();
            if (!holder.hasPublished() || version != holder.current().version()) {
                reload();
            } else if (lastError != null) {
                clearError();
            }
        } catch (RuntimeException e) {
            if (!database.reportFailure("the configuration poll", e)) {
                LOG.warnf("Polling the configuration version failed, serving snapshot %d: %s",
                        holder.current().version(), rootMessage(e));
            }
        }
    }

    /** Why the published snapshot lacks stored certificates (a missing or wrong secret key), or null. */
    public String certificateProblem() {
        return certificateProblem;
    }

    public String lastError() {
        return lastError;
    }

    public Instant lastErrorAt() {
        return lastErrorAt;
    }

    private void clearError() {
        lastError = null;
        lastErrorAt = null;
    }

    private void fail(String message) {
        remember(message);
        LOG.errorf("Routing snapshot not rebuilt, still serving version %d: %s", holder.current().version(), message);
    }

    private void remember(String message) {
        lastError = message;
        lastErrorAt = Instant.now();
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
