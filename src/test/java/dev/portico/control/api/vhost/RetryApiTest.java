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
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/** The vhost API's {@code retry} block: defaults filled in, normalised, every invalid field named. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RetryApiTest {

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    private static JsonObject valid(JsonObject retry) {
        return Api.vhost("again", "again.example.com", "http://10.0.0.5").put("retry", retry);
    }

    @Test
    void aVhostThatSaysNothingRetriesConnectFailuresWithEveryDefaultShown() {
        Response response = Api.given().body(Api.vhost("plain", "plain.example.com", "http://10.0.0.5").encode())
                .post(VHOSTS);

        response.then().statusCode(201)
                .body("retry.on", contains("connect_failure"))
                .body("retry.attempts", equalTo(3))
                .body("retry.perTryTimeout", nullValue())
                .body("retry.backoff", equalTo("25ms"))
                .body("retry.maxBackoff", equalTo("250ms"))
                .body("retry.retryBufferSize", equalTo("64KiB"))
                .body("retry.budget", equalTo(0.2f))
                .body("retry.minRetriesPerSecond", equalTo(10));
    }

    @Test
    void theBlockIsNormalisedAndRoundTrips() {
        JsonObject body = valid(new JsonObject()
                .put("on", new JsonArray().add("503").add(" Reset ").add("connect_failure").add("502"))
                .put("attempts", 2).put("perTryTimeout", "2000ms").put("backoff", "100ms")
                .put("retryBufferSize", "131072").put("budget", 0.5).put("minRetriesPerSecond", 0));

        Response created = Api.given().body(body.encode()).post(VHOSTS);

        created.then().statusCode(201)
                .body("retry.on", contains("connect_failure", "reset", "502", "503"))
                .body("retry.attempts", equalTo(2))
                .body("retry.perTryTimeout", equalTo("2s"))
                .body("retry.backoff", equalTo("100ms"))
                .body("retry.maxBackoff", equalTo("1s"))
                .body("retry.retryBufferSize", equalTo("128KiB"))
                .body("retry.budget", equalTo(0.5f))
                .body("retry.minRetriesPerSecond", equalTo(0));
        String id = created.path("id");
        Api.given().header("If-Match", "\"1\"").body(created.asString()).put(VHOSTS + "/" + id)
                .then().statusCode(200).body("retry.on", contains("connect_failure", "reset", "502", "503"));
    }

    @Test
    void anEmptyListNeverRetries() {
        Api.given().body(valid(new JsonObject().put("on", new JsonArray())).encode()).post(VHOSTS)
                .then().statusCode(201).body("retry.on", empty());
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("unknown condition", "retry.on[2]",
                        new JsonObject().put("on", new JsonArray().add("timeout").add("503").add("http_503"))),
                Arguments.of("status out of range", "retry.on[0]",
                        new JsonObject().put("on", new JsonArray().add("302"))),
                Arguments.of("condition twice", "retry.on[1]",
                        new JsonObject().put("on", new JsonArray().add("reset").add("RESET"))),
                Arguments.of("status twice", "retry.on[1]",
                        new JsonObject().put("on", new JsonArray().add("503").add("503"))),
                Arguments.of("a number, not text", "retry.on[0]",
                        new JsonObject().put("on", new JsonArray().add(503))),
                Arguments.of("no attempt", "retry.attempts", new JsonObject().put("attempts", 0)),
                Arguments.of("too many attempts", "retry.attempts", new JsonObject().put("attempts", 11)),
                Arguments.of("zero per-try timeout", "retry.perTryTimeout",
                        new JsonObject().put("perTryTimeout", "0s")),
                Arguments.of("per-try timeout in days", "retry.perTryTimeout",
                        new JsonObject().put("perTryTimeout", "1d")),
                Arguments.of("backoff too long", "retry.backoff", new JsonObject().put("backoff", "11s")),
                Arguments.of("backoff not a duration", "retry.backoff", new JsonObject().put("backoff", "soon")),
                Arguments.of("cap below the base", "retry.maxBackoff",
                        new JsonObject().put("backoff", "1s").put("maxBackoff", "500ms")),
                Arguments.of("buffer not a size", "retry.retryBufferSize",
                        new JsonObject().put("retryBufferSize", "lots")),
                Arguments.of("buffer too large", "retry.retryBufferSize",
                        new JsonObject().put("retryBufferSize", "17MiB")),
                Arguments.of("budget over 1", "retry.budget", new JsonObject().put("budget", 1.5)),
                Arguments.of("negative budget", "retry.budget", new JsonObject().put("budget", -0.1)),
                Arguments.of("budget as text", "retry.budget", new JsonObject().put("budget", "20%")),
                Arguments.of("negative minimum", "retry.minRetriesPerSecond",
                        new JsonObject().put("minRetriesPerSecond", -1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void anInvalidFieldIsNamedAndNothingIsStored(String description, String field, JsonObject retry) {
        assertInvalid(Api.given().body(valid(retry).encode()).post(VHOSTS), field);
        assertNoVhosts();
    }

    @Test
    void everyInvalidFieldIsReportedAtOnce() {
        JsonObject body = valid(new JsonObject().put("on", new JsonArray().add("connect_failure").add("teapot"))
                .put("attempts", 0).put("retryBufferSize", "x").put("budget", 2));

        assertInvalid(Api.given().body(body.encode()).post(VHOSTS), "retry.on[1]", "retry.attempts",
                "retry.retryBufferSize", "retry.budget");
    }

    @Test
    void anUnknownFieldIsRefused() {
        assertInvalid(Api.given().body(valid(new JsonObject().put("tries", 2)).encode()).post(VHOSTS), "retry.tries");
        assertNoVhosts();
    }
}
