package dev.portico.control.health;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An access log that cannot be opened (the shipped Kubernetes setup before it wrote to standard output: a relative
 * path on a read-only root filesystem) is loud: readiness DOWN with the reason, the metric at 0, the status API
 * saying why and counting the lost lines, while the proxy itself keeps serving.
 */
@QuarkusTest
@TestProfile(UnwritableAccessLogTest.UnwritablePath.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UnwritableAccessLogTest {

    /** A regular file where the log's directory should be: tests run as root, which permission bits do not stop. */
    static final Path NOT_A_DIRECTORY = createRegularFile();
    static final Path LOG = NOT_A_DIRECTORY.resolve("access.log");

    public static class UnwritablePath implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("portico.access-log.file", LOG.toString());
        }
    }

    @Inject
    DataPlaneServer dataPlane;

    @TestHTTPResource(value = "/", management = true)
    URL management;

    private OriginServer origin;

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        if (origin != null) {
            origin.close();
        }
    }

    @Test
    void readinessIsDownTheMetricIsZeroAndStatusSaysWhyWhileTheProxyServes() {
        String readiness = management().get("/q/health/ready").then().statusCode(503)
                .body("status", equalTo("DOWN")).extract().asString();
        JsonPath checks = JsonPath.from(readiness);
        assertEquals("DOWN", checks.getString("checks.find { it.name == 'access-log' }.status"), readiness);
        assertEquals("UP", checks.getString("checks.find { it.name == 'dataplane' }.status"),
                "the access log is the only thing wrong: " + readiness);
        assertEquals(LOG.toString(), checks.getString("checks.find { it.name == 'access-log' }.data.destination"));
        assertTrue(checks.getString("checks.find { it.name == 'access-log' }.data.lastError")
                .startsWith("cannot open " + LOG), readiness);
        management().get("/q/health/live").then().statusCode(200);

        String metrics = management().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("portico_access_log_writable{destination=\"" + LOG + "\"} 0.0"), metrics);

        Api.given().get("/api/v1/status").then().statusCode(200)
                .body("accessLog.enabled", is(true))
                .body("accessLog.path", equalTo(LOG.toString()))
                .body("accessLog.writable", is(false))
                .body("accessLog.lastError", startsWith("cannot open " + LOG))
                .body("accessLog.lastErrorAt", notNullValue());
        long droppedBefore = droppedLines();

        origin = OriginServer.start("unwritable");
        Api.create(Api.vhost("unwritable", "unwritable.test", origin.url()));
        try (ProxyClient client = new ProxyClient(dataPlane.port())) {
            assertEquals(200, client.get("unwritable.test", "/echo").status());
        }
        Eventually.within(Duration.ofSeconds(10), () -> assertTrue(droppedLines() > droppedBefore,
                "the request's line is counted as dropped"));
    }

    private long droppedLines() {
        return Api.given().get("/api/v1/status").then().statusCode(200).extract().jsonPath()
                .getLong("accessLog.droppedLines");
    }

    private RequestSpecification management() {
        return RestAssured.given().baseUri(management.getProtocol() + "://" + management.getHost() + ":"
                + management.getPort());
    }

    private static Path createRegularFile() {
        try {
            Path file = Files.createTempFile("portico-not-a-directory", "");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
