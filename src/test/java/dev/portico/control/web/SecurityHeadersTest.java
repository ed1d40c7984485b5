package dev.portico.control.web;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

import java.net.URL;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * The management port serves the dashboard's files publicly with a strict policy, and the API with headers fit for
 * data; health and metrics on their own port are left as they were.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SecurityHeadersTest {

    private static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
            + "form-action 'self'";

    @TestHTTPResource(value = "/", management = true)
    URL management;

    private static ValidatableResponse assertPageHeaders(Response response) {
        return response.then()
                .statusCode(200)
                .header("Content-Security-Policy", equalTo(POLICY))
                .header("X-Frame-Options", "DENY")
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer");
    }

    @Test
    void theIndexPageIsPublicNeverStoredAndUnderTheStrictPolicy() {
        assertPageHeaders(RestAssured.given().get("/"))
                .header("Content-Type", startsWith("text/html"))
                .header("Cache-Control", "no-store")
                .body(containsString("<title>Portico</title>"));
        assertPageHeaders(RestAssured.given().get("/index.html")).header("Cache-Control", "no-store");
    }

    @Test
    void uPlotIsServedFromItsWebJarWithoutAVersionInThePath() {
        assertPageHeaders(RestAssured.given().get("/webjars/uplot/dist/uPlot.esm.js"))
                .header("Content-Type", containsString("javascript"))
                .header("Cache-Control", "no-cache")
                .body(containsString("export { uPlot as default }"));
        assertPageHeaders(RestAssured.given().get("/webjars/uplot/dist/uPlot.min.css"))
                .header("Content-Type", startsWith("text/css"))
                .body(containsString(".uplot"));
    }

    @Test
    void theUisFilesArePublicAndUnderTheStrictPolicy() {
        assertPageHeaders(RestAssured.given().get("/ui/header-probe/probe.js"))
                .header("Content-Type", containsString("javascript"))
                .header("Cache-Control", "no-cache");
    }

    @Test
    void apiAnswersAreDataThatIsNeitherFramedNorStored() {
        for (Response response : new Response[]{Api.given().get("/api/v1/vhosts"),
                RestAssured.given().get("/api/v1/vhosts")}) {
            response.then()
                    .header("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
                    .header("X-Frame-Options", "DENY")
                    .header("X-Content-Type-Options", "nosniff")
                    .header("Referrer-Policy", "no-referrer")
                    .header("Cache-Control", "no-store");
        }
    }

    @Test
    void healthAndMetricsOnTheirOwnPortAreUntouched() {
        String origin = management.getProtocol() + "://" + management.getHost() + ":" + management.getPort();
        RestAssured.given().baseUri(origin).get("/q/health/live").then()
                .statusCode(200).body("status", equalTo("UP"))
                .header("Content-Security-Policy", nullValue())
                .header("X-Frame-Options", nullValue());
        RestAssured.given().baseUri(origin).get("/q/metrics").then()
                .statusCode(200).header("Content-Security-Policy", nullValue());
    }
}
