package dev.portico.control.snapshot;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.Scrape;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 18: every API write is timed per phase, so a slow one can be explained from /q/metrics. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ConfigurationWriteTimingsTest {

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
    }

    private double count(String phase) {
        return Scrape.of(metrics).valueOrZero("portico_configuration_write_seconds_count{phase=\"" + phase + "\"}");
    }

    @Test
    void eachWriteIsTimedInItsCommitItsPublishAndTheReloadThatPublishedIt() {
        String[] phases = {"commit", "publish", "reload_read", "reload_compile"};
        double[] before = new double[phases.length];
        for (int i = 0; i < phases.length; i++) {
            before[i] = count(phases[i]);
        }

        String id = Api.create(Api.vhost("timed", "timed.test", "http://127.0.0.1:9"));
        Api.given().delete("/api/v1/vhosts/" + id).then().statusCode(204);

        assertEquals(before[0] + 2, count("commit"), "the create's and the delete's transactions");
        assertEquals(before[1] + 2, count("publish"), "each write waited once for its change to serve");
        assertTrue(count("reload_read") >= before[2] + 2, "each write's version was read by a reload");
        assertTrue(count("reload_compile") >= before[3] + 2, "and compiled and published");
        assertTrue(Scrape.of(metrics).value(
                "portico_configuration_write_seconds_bucket{phase=\"commit\",le=\"5.0\"}") >= 2,
                "histogram buckets to read percentiles from");
    }
}
