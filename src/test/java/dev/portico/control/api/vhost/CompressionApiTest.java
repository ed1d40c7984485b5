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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

/** The vhost API's {@code compression} block: defaults filled in, normalised, every invalid field named. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CompressionApiTest {

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    private static JsonObject valid(JsonObject compression) {
        return Api.vhost("zip", "zip.example.com", "http://10.0.0.5").put("compression", compression);
    }

    @Test
    void aVhostThatSaysNothingShowsCompressionOffWithEveryDefault() {
        Response response = Api.given().body(Api.vhost("plain", "plain.example.com", "http://10.0.0.5").encode())
                .post(VHOSTS);

        response.then().statusCode(201)
                .body("compression.enabled", equalTo(false))
                .body("compression.encodings", contains("br", "zstd", "gzip"))
                .body("compression.types", hasItems("text/*", "application/json", "application/*+json",
                        "image/svg+xml", "application/wasm"))
                .body("compression.minLength", equalTo("1KiB"))
                .body("compression.levels.gzip", equalTo(5))
                .body("compression.levels.br", equalTo(4))
                .body("compression.levels.zstd", equalTo(3));
    }

    @Test
    void theBlockIsNormalisedAndRoundTrips() {
        JsonObject body = valid(new JsonObject().put("enabled", true)
                .put("encodings", new JsonArray().add(" GZIP ").add("br"))
                .put("types", new JsonArray().add("Text/HTML").add("application/*+json").add("text/html"))
                .put("minLength", "2048")
                .put("levels", new JsonObject().put("br", 6)));

        Response created = Api.given().body(body.encode()).post(VHOSTS);

        created.then().statusCode(201)
                .body("compression.enabled", equalTo(true))
                .body("compression.encodings", contains("gzip", "br"))
                .body("compression.types", contains("text/html", "application/*+json"))
                .body("compression.minLength", equalTo("2KiB"))
                .body("compression.levels.gzip", equalTo(5))
                .body("compression.levels.br", equalTo(6));
        String id = created.path("id");
        Api.given().header("If-Match", "\"1\"").body(created.asString()).put(VHOSTS + "/" + id)
                .then().statusCode(200).body("compression.encodings", contains("gzip", "br"));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("unknown coding", "compression.encodings[1]",
                        new JsonObject().put("encodings", new JsonArray().add("br").add("deflate"))),
                Arguments.of("coding twice", "compression.encodings[1]",
                        new JsonObject().put("encodings", new JsonArray().add("gzip").add("gzip"))),
                Arguments.of("no coding", "compression.encodings",
                        new JsonObject().put("encodings", new JsonArray())),
                Arguments.of("no type", "compression.types", new JsonObject().put("types", new JsonArray())),
                Arguments.of("not a media type", "compression.types[0]",
                        new JsonObject().put("types", new JsonArray().add("html"))),
                Arguments.of("wildcard type", "compression.types[0]",
                        new JsonObject().put("types", new JsonArray().add("*/*"))),
                Arguments.of("parameters", "compression.types[0]",
                        new JsonObject().put("types", new JsonArray().add("text/html; charset=utf-8"))),
                Arguments.of("bad minimum", "compression.minLength", new JsonObject().put("minLength", "a lot")),
                Arguments.of("negative minimum", "compression.minLength", new JsonObject().put("minLength", "-1")),
                Arguments.of("gzip 0", "compression.levels.gzip",
                        new JsonObject().put("levels", new JsonObject().put("gzip", 0))),
                Arguments.of("gzip 10", "compression.levels.gzip",
                        new JsonObject().put("levels", new JsonObject().put("gzip", 10))),
                Arguments.of("br 12", "compression.levels.br",
                        new JsonObject().put("levels", new JsonObject().put("br", 12))),
                Arguments.of("zstd 20", "compression.levels.zstd",
                        new JsonObject().put("levels", new JsonObject().put("zstd", 20))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void anInvalidFieldIsNamedAndNothingIsStored(String description, String field, JsonObject compression) {
        assertInvalid(Api.given().body(valid(compression.put("enabled", true)).encode()).post(VHOSTS), field);
        assertNoVhosts();
    }

    @Test
    void everyInvalidFieldIsReportedAtOnce() {
        JsonObject body = valid(new JsonObject().put("encodings", new JsonArray().add("lzma"))
                .put("levels", new JsonObject().put("zstd", 99)).put("minLength", "x"));

        assertInvalid(Api.given().body(body.encode()).post(VHOSTS), "compression.encodings[0]",
                "compression.levels.zstd", "compression.minLength");
    }

    @Test
    void anUnknownFieldIsRefused() {
        Api.given().body(valid(new JsonObject().put("gzip_vary", true)).encode()).post(VHOSTS).then().statusCode(400);
        assertNoVhosts();
    }
}
