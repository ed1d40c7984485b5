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

import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The vhost API's {@code static} block: defaults filled in on output, every invalid field named, upstream rules. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticApiTest {

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    private static JsonObject valid() {
        return new JsonObject().put("name", "site").put("hostnames", new JsonArray().add("site.example.com"))
                .put("static", new JsonObject().put("root", "/srv/site"));
    }

    @Test
    void aStaticOnlyVhostIsCreatedWithEveryDefault() {
        Response response = Api.given().body(valid().encode()).post(VHOSTS);

        response.then().statusCode(201)
                .body("upstreams", empty())
                .body("static.root", equalTo("/srv/site"))
                .body("static.index", contains("index.html"))
                .body("static.tryFiles", contains("$uri", "$uri/"))
                .body("static.listing", equalTo(false))
                .body("static.hidden", equalTo(false))
                .body("static.precompressed", equalTo(true))
                .body("static.sendfile", equalTo(true))
                .body("static.cacheControl", empty());
        String id = response.path("id");
        assertEquals(response.asString(), Api.given().get(VHOSTS + "/" + id).asString());
    }

    @Test
    void theBlockIsNormalisedAndRoundTrips() {
        JsonObject body = valid().put("static", new JsonObject().put("root", "//srv//site/")
                .put("tryFiles", new JsonArray().add("$uri").add("$uri.html").add("/index.html"))
                .put("cacheControl", new JsonArray().add(new JsonObject().put("match", "/assets/*")
                        .put("value", " public, max-age=31536000, immutable "))));

        Response created = Api.given().body(body.encode()).post(VHOSTS);

        created.then().statusCode(201)
                .body("static.root", equalTo("/srv/site"))
                .body("static.tryFiles", contains("$uri", "$uri.html", "/index.html"))
                .body("static.cacheControl[0].match", equalTo("/assets/*"))
                .body("static.cacheControl[0].value", equalTo("public, max-age=31536000, immutable"));
        String id = created.path("id");
        Response replaced = Api.given().header("If-Match", "\"1\"").body(created.asString()).put(VHOSTS + "/" + id);
        replaced.then().statusCode(200).body("static.root", equalTo("/srv/site")).body("version", equalTo(2));
    }

    @Test
    void aVhostWithoutStaticShowsNull() {
        Api.given().body(Api.vhost("proxy", "proxy.example.com", "http://10.0.0.5").encode()).post(VHOSTS)
                .then().statusCode(201).body("static", nullValue()).body("upstreams.size()", equalTo(1));
    }

    @Test
    void staticAndUpstreamsTogether() {
        JsonObject body = valid().put("upstreams", new JsonArray().add(new JsonObject().put("url", "http://10.0.0.5")))
                .put("cache", new JsonObject().put("enabled", true));

        Api.given().body(body.encode()).post(VHOSTS).then().statusCode(201)
                .body("upstreams.size()", equalTo(1)).body("cache.enabled", equalTo(true));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                invalid("no static and no upstreams", "upstreams", v -> v.remove("static")),
                invalid("missing root", "static.root", v -> v.put("static", new JsonObject())),
                invalid("relative root", "static.root", v -> root(v, "srv/site")),
                invalid("root /", "static.root", v -> root(v, "/")),
                invalid("root //", "static.root", v -> root(v, "//")),
                invalid("root with ..", "static.root", v -> root(v, "/srv/../etc")),
                invalid("root with a NUL", "static.root", v -> root(v, "/srv/\u0000site")),
                invalid("root with a backslash", "static.root", v -> root(v, "/srv\\site")),
                invalid("index with a slash", "static.index[0]", v -> block(v, "index", new JsonArray().add("a/b"))),
                invalid("index ..", "static.index[1]", v -> block(v, "index", new JsonArray().add("i.html").add(".."))),
                invalid("empty index name", "static.index[0]", v -> block(v, "index", new JsonArray().add(""))),
                invalid("index twice", "static.index[1]",
                        v -> block(v, "index", new JsonArray().add("i.html").add("i.html"))),
                invalid("empty tryFiles", "static.tryFiles", v -> block(v, "tryFiles", new JsonArray())),
                invalid("relative tryFiles entry", "static.tryFiles[1]",
                        v -> block(v, "tryFiles", new JsonArray().add("$uri").add("index.html"))),
                invalid("unknown variable", "static.tryFiles[0]",
                        v -> block(v, "tryFiles", new JsonArray().add("$request_uri"))),
                invalid("tryFiles with ..", "static.tryFiles[2]",
                        v -> block(v, "tryFiles", new JsonArray().add("$uri").add("$uri/").add("/../etc/passwd"))),
                invalid("tryFiles with a query", "static.tryFiles[0]",
                        v -> block(v, "tryFiles", new JsonArray().add("/index.html?x"))),
                invalid("rule without value", "static.cacheControl[0].value",
                        v -> block(v, "cacheControl", new JsonArray().add(new JsonObject().put("match", "/a/*")))),
                invalid("rule without match", "static.cacheControl[0].match",
                        v -> block(v, "cacheControl", new JsonArray().add(new JsonObject().put("value", "no-cache")))),
                invalid("relative pattern", "static.cacheControl[1].match", v -> block(v, "cacheControl",
                        new JsonArray().add(rule("/a", "x")).add(rule("assets/*", "x")))),
                invalid("value with CR LF", "static.cacheControl[0].value",
                        v -> block(v, "cacheControl", new JsonArray().add(rule("/*", "no-cache\r\nSet-Cookie: a=b")))),
                invalid("cache without upstreams", "cache.enabled",
                        v -> v.put("cache", new JsonObject().put("enabled", true))),
                invalid("65 upstreams", "upstreams", v -> {
                    JsonArray upstreams = new JsonArray();
                    for (int i = 0; i < 65; i++) {
                        upstreams.add(new JsonObject().put("url", "http://10.0.0." + (i % 250 + 1) + ":" + (8000 + i)));
                    }
                    v.put("upstreams", upstreams);
                }));
    }

    private static Arguments invalid(String description, String field, Consumer<JsonObject> change) {
        JsonObject v = valid();
        change.accept(v);
        return Arguments.of(description, field, v.encode());
    }

    private static void root(JsonObject v, String root) {
        v.getJsonObject("static").put("root", root);
    }

    private static void block(JsonObject v, String field, Object value) {
        v.getJsonObject("static").put(field, value);
    }

    private static JsonObject rule(String match, String value) {
        return new JsonObject().put("match", match).put("value", value);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void anInvalidFieldIsNamedAndNothingIsStored(String description, String field, String body) {
        Response response = Api.given().body(body).post(VHOSTS);

        assertInvalid(response, field);
        assertNoVhosts();
    }

    @Test
    void everyInvalidFieldIsReportedAtOnce() {
        JsonObject body = valid().put("static", new JsonObject().put("root", "relative")
                .put("tryFiles", new JsonArray().add("$uri").add("nope"))
                .put("index", new JsonArray().add("a/b")));

        assertInvalid(Api.given().body(body.encode()).post(VHOSTS), "static.root", "static.tryFiles[1]",
                "static.index[0]");
    }

    @Test
    void anUnknownFieldInTheBlockIsRefused() {
        JsonObject body = valid();
        body.getJsonObject("static").put("autoindex", true);

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        response.then().statusCode(400);
        assertNoVhosts();
    }

    @Test
    void typesAreStrict() {
        JsonObject body = valid();
        body.getJsonObject("static").put("listing", "yes");

        Api.given().body(body.encode()).post(VHOSTS).then().statusCode(400);
        assertNoVhosts();
    }
}
