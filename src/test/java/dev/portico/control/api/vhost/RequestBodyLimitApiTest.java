package dev.portico.control.api.vhost;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.nullValue;

/** The vhost API's {@code maxRequestBody}: null takes the global default, sizes are normalised, bad values named. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RequestBodyLimitApiTest {

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    private static JsonObject limited(String limit) {
        return Api.vhost("upload", "upload.example.com", "http://10.0.0.5").put("maxRequestBody", limit);
    }

    @Test
    void aVhostThatSaysNothingShowsNullForTheGlobalDefault() {
        String id = Api.create(Api.vhost("plain", "plain.example.com", "http://10.0.0.5"));
        Api.given().get(VHOSTS + "/" + id).then().statusCode(200)
                .body("$", hasKey("maxRequestBody"))
                .body("maxRequestBody", nullValue());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"1048576, 1MiB", "1024KiB, 1MiB", "10MiB, 10MiB", "1000, 1000", "0, unlimited",
            "' Unlimited ', unlimited", "1024GiB, 1024GiB"})
    void sizesAreNormalisedAndRoundTrip(String sent, String shown) {
        Response created = Api.given().body(limited(sent).encode()).post(VHOSTS);
        created.then().statusCode(201).body("maxRequestBody", equalTo(shown));
        String id = created.path("id");
        Api.given().header("If-Match", "\"1\"").body(created.asString()).put(VHOSTS + "/" + id)
                .then().statusCode(200).body("maxRequestBody", equalTo(shown));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lots", "-1", "1.5MiB", "10MB", "1025GiB", ""})
    void badValuesAreNamed(String sent) {
        assertInvalid(Api.given().body(limited(sent).encode()).post(VHOSTS), "maxRequestBody");
        assertNoVhosts();
    }
}
