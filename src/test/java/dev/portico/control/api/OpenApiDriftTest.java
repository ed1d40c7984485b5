package dev.portico.control.api;

import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The committed {@code openapi/openapi.yaml} is exactly the document the running API serves, so a change to the
 * API's shape cannot go unnoticed in review.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class OpenApiDriftTest {

    private static final Path COMMITTED = Path.of("openapi", "openapi.yaml");
    private static final Path SERVED_COPY = Path.of("target", "openapi.yaml");

    @TestHTTPResource(value = "/", management = true)
    URL management;

    @Test
    void theCommittedDocumentIsTheServedOne() throws IOException {
        Response response = RestAssured.given()
                .baseUri(management.getProtocol() + "://" + management.getHost() + ":" + management.getPort())
                .accept("application/yaml")
                .get("/q/openapi");
        response.then().statusCode(200).header("Content-Type", startsWith("application/yaml"));
        String served = normalise(response.asString());

        String committed = Files.exists(COMMITTED) ? normalise(Files.readString(COMMITTED, StandardCharsets.UTF_8))
                : null;

        if (!served.equals(committed)) {
            Files.createDirectories(SERVED_COPY.getParent());
            Files.writeString(SERVED_COPY, served, StandardCharsets.UTF_8);
            fail((committed == null ? COMMITTED + " does not exist. " : "The served OpenAPI document differs from "
                    + COMMITTED + firstDifference(committed, served) + ". ")
                    + "If the API change is intended, copy " + SERVED_COPY + " to " + COMMITTED + " and commit it: "
                    + "cp " + SERVED_COPY + " " + COMMITTED);
        }
    }

    /** Line endings only: a checkout with core.autocrlf must not fail the comparison. */
    private static String normalise(String yaml) {
        return yaml.replace("\r\n", "\n");
    }

    private static String firstDifference(String committed, String served) {
        String[] a = committed.split("\n", -1);
        String[] b = served.split("\n", -1);
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            String left = i < a.length ? a[i] : "<end of file>";
            String right = i < b.length ? b[i] : "<end of file>";
            if (!left.equals(right)) {
                return " at line " + (i + 1) + ": committed '" + left.strip() + "', served '" + right.strip() + "'";
            }
        }
        return "";
    }
}
