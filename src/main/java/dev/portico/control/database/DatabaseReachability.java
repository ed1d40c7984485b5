package dev.portico.control.database;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one owner of "is the configuration database reachable". Every component that talks to PostgreSQL reports a
 * failed operation here ({@link #reportFailure}); the first connection failure marks the database unreachable at
 * once, so {@code /q/health/group/database}, {@code databaseReachable} in {@code /api/v1/status}, the API's 503
 * and the purge's skip of its NOTIFY all read the same state. Only a probe ({@link #probe}, or the snapshot
 * reloader's own poll) marks it reachable again: a user request is never what ends an outage, so the API and
 * health cannot disagree while it lasts.
 *
 * <p>An outage is logged as one WARN line when it starts and one INFO line when it ends, with its length; the
 * pool's, Hibernate's and the transaction manager's own reports of the same failures are quietened by
 * {@link OutageLogQuieting}. Thread-safe; called from worker threads and the control plane's own threads, never
 * from an event loop.
 */
@Singleton
public class DatabaseReachability {

    private static final Logger LOG = Logger.getLogger(DatabaseReachability.class);
    /** A probe through a silent network must not hold the scheduler thread for long. */
    private static final int PROBE_TIMEOUT_SECONDS = 2;

    /** Null while reachable; otherwise when and why the outage began. */
    private final AtomicReference<Outage> outage = new AtomicReference<>();
    private final AgroalDataSource dataSource;
    private final Event<Recovered> recovered;
    private volatile boolean stopping;

    /** Fired on the probing thread once the database answers again, so that what waited for it can catch up. */
    public record Recovered(Duration unreachableFor) {
    }

    private record Outage(Instant since, long sinceNanos, String error) {
    }

    public DatabaseReachability(AgroalDataSource dataSource, Event<Recovered> recovered) {
        this.dataSource = dataSource;
        this.recovered = recovered;
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    public boolean reachable() {
        return outage.get() == null;
    }

    /** Why the database is unreachable (the root cause of the failure that began the outage), or null. */
    public String error() {
        Outage current = outage.get();
        return current == null ? null : current.error();
    }

    /** When the current outage began, or null while the database is reachable. */
    public Instant unreachableSince() {
        Outage current = outage.get();
        return current == null ? null : current.since();
    }

    /**
     * Reports a failed database operation. A connection failure (the server gone, the network cut, the pool
     * unable to connect) marks the database unreachable at once; any other failure (a constraint, a timeout of
     * one statement) says nothing about reachability and is left to the caller.
     *
     * @param what  what failed, for the log line that starts an outage ("an API write", "the snapshot poll")
     * @return whether {@code failure} was a connection failure, now reported (the caller need not log it again)
     */
    public boolean reportFailure(String what, Throwable failure) {
        if (!isConnectionFailure(failure)) {
            return false;
        }
        String error = rootMessage(failure);
        Outage started = new Outage(Instant.now(), System.nanoTime(), error);
        if (outage.compareAndSet(null, started) && !stopping) {
            LOG.warnf("Configuration database unreachable (noticed by %s: %s). The data plane keeps serving its "
                    + "last snapshot; the management API answers 503 until a probe reaches the database again",
                    what, error);
        }
        return true;
    }

    /**
     * Reports that a probe (never a user request) reached the database: ends the outage, if there was one, with
     * its length in the log and a {@link Recovered} event.
     */
    public void reportReachable() {
        Outage ended = outage.getAndSet(null);
        if (ended == null) {
            return;
        }
        Duration lasted = Duration.ofNanos(System.nanoTime() - ended.sinceNanos());
        LOG.infof("Configuration database reachable again after %s (unreachable since %s)", format(lasted),
                ended.since());
        recovered.fire(new Recovered(lasted));
    }

    /**
     * While the database is unreachable, tries it through the pool the API uses, so that recovery is seen within
     * a probe interval rather than at the snapshot poll's slower pace; does nothing while it is reachable.
     */
    @Scheduled(every = "${portico.reload.database-probe-interval}", delayed = "${portico.reload.database-probe-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void probe() {
        if (reachable() || stopping) {
            return;
        }
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(PROBE_TIMEOUT_SECONDS);
            statement.execute("select 1");
        } catch (SQLException | RuntimeException e) {
            LOG.debugf("Database probe failed: %s", rootMessage(e));
            return;
        }
        reportReachable();
    }

    /**
     * SQLSTATE class 08 is "connection exception", 57P01-57P03 a server shutting down or starting; the driver
     * reports a dead socket as an I/O exception, and Agroal a pool that cannot connect in time without a state.
     */
    static boolean isConnectionFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                        || state.equals("57P03"))) {
                    return true;
                }
                String message = String.valueOf(sql.getMessage()).toLowerCase();
                if (state == null && (message.contains("acquisition timeout") || message.contains("unable to acquire")
                        || message.contains("connection has been closed"))) {
                    return true;
                }
            }
            if (t instanceof ConnectException || t instanceof EOFException || t instanceof SocketTimeoutException
                    || t instanceof SocketException) {
                return true;
            }
        }
        return false;
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static String format(Duration lasted) {
        return String.format("%.1f s", lasted.toMillis() / 1000.0);
    }
}
