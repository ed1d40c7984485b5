package dev.portico.control.api.vhost;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;

/**
 * Issue 11 item 13, on the management side: a vhost is stored as jsonb, which cannot hold NUL. A NUL inside any text
 * field is a 400 naming the field, never a 500 from PostgreSQL refusing the row (or a NUL kept in the configuration).
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class VhostNulTest {

    private static final String NUL = "\u0000";

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    static Stream<Arguments> fieldsWithNul() {
        return Stream.of(
                nul("name", v -> v.put("name", "a" + NUL + "b")),
                nul("hostnames[0]", v -> v.put("hostnames", new JsonArray().add("a" + NUL + ".test"))),
                nul("upstreams[0].url", v -> v.put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", "http://10.0.0.5/a" + NUL + "b")))),
                nul("connectTimeout", v -> v.put("connectTimeout", "5" + NUL + "s")),
                nul("requestHeaders.set.X-A", v -> v.put("requestHeaders", new JsonObject()
                        .put("set", new JsonObject().put("X-A", "a" + NUL + "b")))),
                nul("responseHeaders.add.X-A", v -> v.put("responseHeaders", new JsonObject()
                        .put("add", new JsonObject().put("X-A", "a" + NUL + "b")))),
                nul("cache.ignoreQueryParams[0]", v -> v.put("cache", new JsonObject()
                        .put("ignoreQueryParams", new JsonArray().add("utm" + NUL + "x")))),
                nul("static.root", v -> v.put("static", new JsonObject().put("root", "/srv/" + NUL + "x"))),
                nul("static.index[0]", v -> v.put("static", new JsonObject().put("root", "/srv/site")
                        .put("index", new JsonArray().add("index" + NUL + ".html")))),
                nul("static.tryFiles[0]", v -> v.put("static", new JsonObject().put("root", "/srv/site")
                        .put("tryFiles", new JsonArray().add("$uri" + NUL + "x")))),
                nul("static.cacheControl[0].value", v -> v.put("static", new JsonObject().put("root", "/srv/site")
                        .put("cacheControl", new JsonArray().add(new JsonObject().put("match", "/*")
                                .put("value", "no-" + NUL + "cache"))))),
                nul("compression.types[0]", v -> v.put("compression", new JsonObject()
                        .put("types", new JsonArray().add("text/" + NUL + "html")))));
    }

    private static Arguments nul(String field, Consumer<JsonObject> edit) {
        return Arguments.of(field, edit);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fieldsWithNul")
    void aNulIsRefusedWithTheFieldNamed(String field, Consumer<JsonObject> edit) {
        JsonObject vhost = Api.vhost("nul", "nul.test", "http://10.0.0.5:8080");
        edit.accept(vhost);
        assertInvalid(Api.given().body(vhost.encode()).post(VHOSTS), field);
        assertNoVhosts();
    }
}
