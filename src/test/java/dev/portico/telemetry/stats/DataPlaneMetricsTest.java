package dev.portico.telemetry.stats;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Prometheus series of the data plane count exactly what was sent. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DataPlaneMetricsTest extends DataPlaneTestSupport {

    // The management interface's root is /q already.
    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    private double sample(String text, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.eE+-]+)$", Pattern.MULTILINE).matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private String scrape() {
        return RestAssured.given().get(metrics).then().statusCode(200).extract().asString();
    }

    @Test
    void countsRequestsByVhostStatusClassAndLocalReason() {
        vhost("metered", "metered.test", origin("a"));
        ProxyClient client = client();
        String before = scrape();
        double unmatchedBefore = sample(before, "portico_requests_total{status_class=\"4xx\",vhost=\"(none)\"}");
        double notFoundBefore = sample(before, "portico_local_replies_total{reason=\"vhost_not_found\"}");

        for (int i = 0; i < 7; i++) {
            assertEquals(200, client.get("metered.test", "/echo").status());
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(503, client.get("metered.test", "/status/503").status());
        }
        for (int i = 0; i < 2; i++) {
            assertEquals(404, client.get("unknown.metered.test", "/").status());
        }

        String after = scrape();
        assertEquals(7, sample(after, "portico_requests_total{status_class=\"2xx\",vhost=\"metered\"}"));
        assertEquals(3, sample(after, "portico_requests_total{status_class=\"5xx\",vhost=\"metered\"}"));
        assertEquals(10, sample(after, "portico_request_duration_seconds_count{vhost=\"metered\"}"));
        assertEquals(unmatchedBefore + 2,
                sample(after, "portico_requests_total{status_class=\"4xx\",vhost=\"(none)\"}"));
        assertEquals(notFoundBefore + 2, sample(after, "portico_local_replies_total{reason=\"vhost_not_found\"}"));
    }

    @Test
    void aDeletedVhostLeavesNoSeriesBehind() {
        String id = vhost("ephemeral", "ephemeral.test", origin("a"));
        client().get("ephemeral.test", "/echo");
        assertEquals(1, sample(scrape(), "portico_requests_total{status_class=\"2xx\",vhost=\"ephemeral\"}"));
        Api.delete(id);
        assertEquals(false, scrape().contains("vhost=\"ephemeral\""));
    }

    @Test
    void clientsThatLeaveMidResponseAreAccountedAndNothingStaysInFlight() throws Exception {
        vhost("leaving", "leaving.test", origin("a"));
        double abortedBefore = sample(scrape(), "portico_local_replies_total{reason=\"client_aborted\"}");
        for (int i = 0; i < 20; i++) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", dataPlane.port())) {
                socket.getOutputStream().write(("GET /bytes/" + (16 * 1024 * 1024) + " HTTP/1.1\r\n"
                        + "Host: leaving.test\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                socket.getInputStream().readNBytes(64 * 1024);
                socket.setSoLinger(true, 0); // leave with a reset, as a client killed mid-download does
            }
        }
        Eventually.within(java.time.Duration.ofSeconds(10), () -> assertEquals(0, dataPlane.inFlight()));
        assertEquals(abortedBefore + 20, sample(scrape(), "portico_local_replies_total{reason=\"client_aborted\"}"));
        assertEquals(200, client().get("leaving.test", "/echo").status());
    }

    @Test
    void exposesJvmMetricsToo() {
        assertEquals(true, scrape().contains("jvm_memory_used_bytes"));
    }
}
