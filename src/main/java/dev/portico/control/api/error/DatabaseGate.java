package dev.portico.control.api.error;

import dev.portico.control.database.DatabaseReachability;
import jakarta.ws.rs.Priorities;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * Answers 503 {@code database-unavailable} for {@link NeedsDatabase} resources while {@link DatabaseReachability}
 * says the database is unreachable: the API then agrees with {@code /q/health/group/database} and
 * {@code /api/v1/status} for the whole outage, answers at once, and a probe, not a client's retry, ends it.
 * Runs after authentication (a pre-matching filter), so a caller without a token still gets 401.
 */
public class DatabaseGate {

    private final DatabaseReachability database;

    public DatabaseGate(DatabaseReachability database) {
        this.database = database;
    }

    @ServerRequestFilter(priority = Priorities.USER)
    public void refuseDuringAnOutage(SimpleResourceInfo resource) {
        if (!database.reachable() && resource.getResourceClass() != null
                && resource.getResourceClass().isAnnotationPresent(NeedsDatabase.class)) {
            throw ApiProblem.databaseUnavailable();
        }
    }
}
