package dev.portico.control.database;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logmanager.ExtLogRecord;

import java.util.List;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Keeps a database outage to the two lines {@link DatabaseReachability} writes. Without this, each operation that
 * meets the dead connection is reported by the pool ("This connection has been closed"), by Hibernate (two WARN
 * lines per statement) and by the transaction manager (ARJUNA016045, a rollback that could not reach the server,
 * with a stack trace), at WARN or ERROR depending on which of them saw it first. Those reports go on the loggers
 * below; a record about a lost connection is dropped there, whatever its level, since the component that met the
 * failure gets it as an exception and reports it to {@link DatabaseReachability}. Anything else they log (a constraint, a leak, a
 * transaction timeout) still passes.
 */
@Singleton
public class OutageLogQuieting {

    /** The categories of the pool, Hibernate's SQL error reports and the JTA transaction manager. */
    static final List<String> CATEGORIES = List.of("io.agroal.pool", "org.hibernate.orm.jdbc.error",
            "org.hibernate.engine.jdbc.spi.SqlExceptionHelper", "com.arjuna.ats.jta");
    /** What the PostgreSQL driver and Agroal say when the connection is gone, in records without an exception. */
    private static final List<String> CONNECTION_LOST = List.of("SQLState: 08", "SQLState: 57P0",
            "An I/O error occurred while sending to the backend", "This connection has been closed",
            "Connection to ", "The connection attempt failed", "terminating connection due to administrator command",
            "Acquisition timeout", "Closing connection in incorrect state VALIDATION");

    /** Kept so that the loggers, held weakly by the log manager, keep their filter. */
    private final List<Logger> quietened = CATEGORIES.stream().map(Logger::getLogger).toList();

    void install(@Observes StartupEvent event) {
        Filter filter = OutageLogQuieting::isLoggable;
        quietened.forEach(logger -> logger.setFilter(filter));
    }

    static boolean isLoggable(LogRecord record) {
        if (record.getThrown() != null && DatabaseReachability.isConnectionFailure(record.getThrown())) {
            return false;
        }
        String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
        if (message == null) {
            return true;
        }
        for (String lost : CONNECTION_LOST) {
            if (message.contains(lost)) {
                return false;
            }
        }
        return true;
    }
}
