package dev.portico.control.api.vhost;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.portico.testing.Problems.VHOSTS;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

/**
 * A {@code static.root} that is not a directory yet is stored (deployments create roots after the vhost), but the
 * vhost and {@code /api/v1/status} say so until it is one.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticRootWarningTest {

    private static final String STATUS = "/api/v1/status";

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    @Test
    void aMissingRootIsStoredWithAWarningUntilItExists() throws Exception {
        Path root = Files.createTempDirectory("portico-root").resolve("site");

        Response created = Api.given().body(site(root).encode()).post(VHOSTS);

        created.then().statusCode(201)
                .body("warnings", hasSize(1))
                .body("warnings[0].field", equalTo("static.root"))
                .body("warnings[0].reason", startsWith("does not exist: no file is served"));
        String id = created.path("id");
        Api.given().get(STATUS).then().statusCode(200)
                .body("staticRootWarnings", hasSize(1))
                .body("staticRootWarnings[0].vhost", equalTo("site"))
                .body("staticRootWarnings[0].root", equalTo(root.toString()))
                .body("staticRootWarnings[0].problem", equalTo("does not exist"));
        // What GET shows, warnings included, can be sent back as it is.
        Api.given().header("If-Match", created.header("ETag")).body(created.asString()).put(VHOSTS + "/" + id)
                .then().statusCode(200).body("warnings", hasSize(1));

        Files.createDirectories(root);

        Api.given().get(VHOSTS + "/" + id).then().statusCode(200).body("warnings", empty());
        Api.given().get(STATUS).then().statusCode(200).body("staticRootWarnings", empty());
    }

    @Test
    void aRootThatIsAFileIsReportedAsNotADirectory() throws Exception {
        Path file = Files.createTempFile("portico-root", ".txt");

        Response created = Api.given().body(site(file).encode()).post(VHOSTS);

        created.then().statusCode(201).body("warnings[0].reason", startsWith("is not a directory"));
        Api.given().get(STATUS).then().body("staticRootWarnings[0].problem", equalTo("is not a directory"));
    }

    @Test
    void anExistingRootHasNoWarning() throws Exception {
        Path root = Files.createTempDirectory("portico-root");

        Api.given().body(site(root).encode()).post(VHOSTS).then().statusCode(201).body("warnings", empty());
        Api.given().get(STATUS).then().body("staticRootWarnings", empty());
    }

    private static JsonObject site(Path root) {
        return new JsonObject().put("name", "site").put("hostnames", new JsonArray().add("site.example.com"))
                .put("static", new JsonObject().put("root", root.toString()));
    }
}
