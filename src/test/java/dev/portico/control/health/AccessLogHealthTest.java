package dev.portico.control.health;

import dev.portico.telemetry.accesslog.AccessLog;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URL;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A writable access log is reported as such in readiness, the metric and {@code /api/v1/status}. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class AccessLogHealthTest {

    @Inject
    AccessLog accessLog;

    @TestHTTPResource(value = "/", management = true)
    URL management;

    @Test
    void aWritableLogIsReadyAtOneAndReportedInStatus() {
        String file = accessLog.file().orElseThrow().toString();
        String readiness = management().get("/q/health/ready").then().statusCode(200).extract().asString();
        JsonPath checks = JsonPath.from(readiness);
        assertEquals("UP", checks.getString("checks.find { it.name == 'access-log' }.status"), readiness);
        assertEquals(file, checks.getString("checks.find { it.name == 'access-log' }.data.destination"));

        String metrics = management().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("portico_access_log_writable{destination=\"" + file + "\"} 1.0"), metrics);

        Api.given().get("/api/v1/status").then().statusCode(200)
                .body("accessLog.enabled", is(true))
                .body("accessLog.path", equalTo(file))
                .body("accessLog.writable", is(true));
        // lastError is not checked: it is kept after a recovery, and AccessLogTest, in the same JVM, fills the disk.
    }

    private RequestSpecification management() {
        return RestAssured.given().baseUri(management.getProtocol() + "://" + management.getHost() + ":"
                + management.getPort());
    }
}
