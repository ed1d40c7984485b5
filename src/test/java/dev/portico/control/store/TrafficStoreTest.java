package dev.portico.control.store;

import dev.portico.telemetry.analytics.offloop.TopItem;
import dev.portico.telemetry.analytics.offloop.TrafficCounts;
import dev.portico.telemetry.analytics.offloop.TrafficMinute;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Buckets in PostgreSQL: writes of the same minute merge, deleted vhosts take their buckets along, old ones expire. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TrafficStoreTest {

    @Inject
    TrafficStore store;

    @Inject
    AnalyticsRetention retention;

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
    }

    @Test
    void writingTheSameMinuteTwiceAddsToTheRow() throws Exception {
        UUID id = UUID.fromString(Api.create(Api.vhost("merge", "merge.test", "http://127.0.0.1:9")));
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        store.save(List.of(new TrafficMinute(id, minute, new TrafficCounts(3, 10, 100, 0, 2, 0, 1, 0),
                List.of(new TopItem("/a", 2), new TopItem("/b", 1)), List.of(new TopItem("10.0.0.1", 3)),
                List.of(new TopItem("curl/8.0", 3, "tool")), List.of())));
        store.save(List.of(new TrafficMinute(id, minute, new TrafficCounts(6, 0, 60, 0, 0, 0, 0, 6),
                List.of(new TopItem("/b", 5), new TopItem("/c", 1)), List.of(new TopItem("10.0.0.2", 6)),
                List.of(new TopItem("curl/8.0", 6, "tool")), List.of(new TopItem("https://r.example/", 6)))));

        assertEquals(1, count("select count(*) from traffic_minute where vhost_id = '" + id + "'"));
        List<TrafficMinute> stored = store.range(id, minute, minute.plusSeconds(60));
        assertEquals(1, stored.size());
        TrafficMinute row = stored.get(0);
        assertEquals(new TrafficCounts(9, 10, 160, 0, 2, 0, 1, 6), row.counts());
        assertEquals(List.of(new TopItem("/b", 6), new TopItem("/a", 2), new TopItem("/c", 1)), row.paths());
        assertEquals(List.of(new TopItem("10.0.0.2", 6), new TopItem("10.0.0.1", 3)), row.clients());
        assertEquals(List.of(new TopItem("curl/8.0", 9, "tool")), row.agents());
        assertEquals(List.of(new TopItem("https://r.example/", 6)), row.referrers());
    }

    @Test
    void bucketsOfADeletedVhostAreSkippedAndDeletedWithIt() throws Exception {
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        store.save(List.of(minute(UUID.randomUUID(), minute)));
        assertEquals(0, count("select count(*) from traffic_minute"));

        String id = Api.create(Api.vhost("gone", "gone.test", "http://127.0.0.1:9"));
        store.save(List.of(minute(UUID.fromString(id), minute)));
        assertEquals(1, count("select count(*) from traffic_minute where vhost_id = '" + id + "'"));
        Api.delete(id);
        assertEquals(0, count("select count(*) from traffic_minute where vhost_id = '" + id + "'"));
    }

    @Test
    void retentionDeletesOldBucketsAndKeepsRecentOnes() throws Exception {
        UUID id = UUID.fromString(Api.create(Api.vhost("old", "old.test", "http://127.0.0.1:9")));
        Instant recent = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MINUTES);
        store.save(List.of(minute(id, recent)));
        execute("insert into traffic_minute (vhost_id, minute, requests, bytes_in, bytes_out, status_1xx, "
                + "status_2xx, status_3xx, status_4xx, status_5xx, top_paths, top_clients, top_agents, "
                + "top_referrers) values ('" + id + "', now() - interval '8 days', 1, 0, 0, 0, 1, 0, 0, 0, "
                + "'[]', '[]', '[]', '[]')");
        assertEquals(2, count("select count(*) from traffic_minute where vhost_id = '" + id + "'"));

        assertTrue(retention.purge() >= 1);

        assertEquals(0, count("select count(*) from traffic_minute where minute < now() - interval '7 days'"));
        assertEquals(1, count("select count(*) from traffic_minute where vhost_id = '" + id + "'"));
        assertEquals(recent, store.range(id, recent, recent.plusSeconds(60)).get(0).minute());
    }

    private static TrafficMinute minute(UUID id, Instant minute) {
        return new TrafficMinute(id, minute, new TrafficCounts(1, 0, 0, 0, 1, 0, 0, 0), List.of(new TopItem("/", 1)),
                List.of(), List.of(), List.of());
    }

    private long count(String sql) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement s = connection.createStatement();
             ResultSet result = s.executeQuery(sql)) {
            result.next();
            return result.getLong(1);
        }
    }

    private void execute(String sql) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }
}
