package dev.portico.control.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.portico.control.database.DatabaseReachability;
import dev.portico.telemetry.analytics.AnalyticsSettings;
import dev.portico.telemetry.analytics.offloop.BucketRefused;
import dev.portico.telemetry.analytics.offloop.SinkUnreachable;
import dev.portico.telemetry.analytics.offloop.TopItem;
import dev.portico.telemetry.analytics.offloop.TrafficCounts;
import dev.portico.telemetry.analytics.offloop.TrafficMinute;
import dev.portico.telemetry.analytics.offloop.TrafficSink;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Traffic buckets in PostgreSQL. Writing adds to what is stored: a bucket already written for the same vhost and
 * start (by another replica, or by this one before a restart or for a late sample) gets the counts summed and the
 * top lists merged, under a row lock, so concurrent writers merge instead of conflicting. Called from the analytics
 * writer thread and the management API, never from an event loop.
 */
@ApplicationScoped
public class TrafficStore implements TrafficSink {

    private static final TypeReference<List<TopItem>> TOP_LIST = new TypeReference<>() {
    };
    private static final int TRANSACTION_TIMEOUT_SECONDS = 30;

    private final TrafficMinuteRepository repository;
    private final ObjectMapper json;
    private final int top;
    private final DatabaseReachability database;

    public TrafficStore(TrafficMinuteRepository repository, ObjectMapper json, AnalyticsSettings config,
                        DatabaseReachability database) {
        this.database = database;
        this.repository = repository;
        this.json = json;
        this.top = Math.max(1, config.top());
    }

    /**
     * Adds closed buckets to the stored ones in one transaction; buckets of deleted vhosts are skipped.
     *
     * @throws BucketRefused when a bucket cannot be stored, nor merged with its stored row
     */
    @Override
    public void save(List<TrafficMinute> minutes) {
        if (!database.reachable()) {
            throw new SinkUnreachable(database.error(), null);
        }
        try {
            QuarkusTransaction.requiringNew().timeout(TRANSACTION_TIMEOUT_SECONDS).run(() -> {
                for (TrafficMinute minute : minutes) {
                    add(minute);
                }
            });
        } catch (RuntimeException e) {
            if (database.reportFailure("the traffic analytics writer", e)) {
                throw new SinkUnreachable(e.getMessage(), e);
            }
            throw e;
        }
    }

    /** A vhost's buckets that start in {@code [from, to)}, oldest first. */
    public List<TrafficMinute> range(UUID vhostId, Instant from, Instant to) {
        return repository.range(vhostId, from, to).stream().map(this::toMinute).toList();
    }

    /** Deletes the buckets that start before {@code cutoff}; returns how many. */
    public long deleteBefore(Instant cutoff) {
        return QuarkusTransaction.requiringNew().call(() -> repository.deleteBefore(cutoff));
    }

    private void add(TrafficMinute minute) {
        TrafficMinuteEntity row = repository.lock(minute.vhostId(), minute.minute());
        if (row == null) {
            if (repository.insertIfAbsent(toEntity(minute))) {
                return;
            }
            // Someone inserted it since, or the vhost is gone.
            row = repository.lock(minute.vhostId(), minute.minute());
            if (row == null) {
                return;
            }
        }
        TrafficMinute merged = toMinute(row).merge(minute, top);
        copy(merged, row);
    }

    private TrafficMinuteEntity toEntity(TrafficMinute minute) {
        TrafficMinuteEntity row = new TrafficMinuteEntity();
        row.vhostId = minute.vhostId();
        row.minute = minute.minute();
        copy(minute, row);
        return row;
    }

    private void copy(TrafficMinute minute, TrafficMinuteEntity row) {
        TrafficCounts counts = minute.counts();
        row.requests = counts.requests();
        row.bytesIn = counts.bytesIn();
        row.bytesOut = counts.bytesOut();
        row.status1xx = counts.status1xx();
        row.status2xx = counts.status2xx();
        row.status3xx = counts.status3xx();
        row.status4xx = counts.status4xx();
        row.status5xx = counts.status5xx();
        row.topPaths = write(minute.paths());
        row.topClients = write(minute.clients());
        row.topAgents = write(minute.agents());
        row.topReferrers = write(minute.referrers());
    }

    private TrafficMinute toMinute(TrafficMinuteEntity row) {
        return new TrafficMinute(row.vhostId, row.minute, new TrafficCounts(row.requests, row.bytesIn, row.bytesOut,
                row.status1xx, row.status2xx, row.status3xx, row.status4xx, row.status5xx), read(row.topPaths),
                read(row.topClients), read(row.topAgents), read(row.topReferrers));
    }

    private String write(List<TopItem> items) {
        try {
            return json.writeValueAsString(items);
        } catch (JsonProcessingException e) {
            throw new BucketRefused("cannot write a top list as JSON", e);
        }
    }

    private List<TopItem> read(String text) {
        try {
            return text == null ? List.of() : json.readValue(text, TOP_LIST);
        } catch (JsonProcessingException e) {
            throw new BucketRefused("a stored top list is not a JSON list of top items", e);
        }
    }
}
