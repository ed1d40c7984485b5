package dev.portico.proxy.routes;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.Problems;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The API's side of routes: every invalid field named, overrides normalised, defaults shown. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RoutesApiTest {

    @AfterEach
    void clean() {
        Api.deleteAll();
    }

    private static JsonObject withRoutes(JsonArray routes) {
        return Api.vhost("routed", "routed.test", "http://127.0.0.1:9").put("routes", routes);
    }

    @Test
    void everyInvalidFieldOfEveryRouteIsNamed() {
        JsonArray routes = new JsonArray()
                .add(new JsonObject().put("match", new JsonObject().put("path", "api/*")).put("connectTimeout", "soon"))
                .add(new JsonObject().put("name", "two").put("match", new JsonObject().put("path", "/a/../b"))
                        .put("redirect", new JsonObject().put("status", 305)))
                .add(new JsonObject().put("name", "two").put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", "ftp://x"))))
                .add(new JsonObject().put("match", new JsonObject().put("pathRegex", "(unclosed"))
                        .put("stripPrefix", "/x/").put("rewrite", new JsonObject().put("regex", "^/a")))
                .add(new JsonObject().put("match", new JsonObject().put("path", "/r"))
                        .put("respond", new JsonObject().put("status", 99)).put("upstreams", new JsonArray()));
        Response response = Api.given().body(withRoutes(routes).encode()).post("/api/v1/vhosts");
        assertInvalid(response, "routes[0].match.path", "routes[0].connectTimeout", "routes[1].match.path",
                "routes[1].redirect.location", "routes[1].redirect.status", "routes[2].name", "routes[2].match",
                "routes[2].upstreams[0].url", "routes[3].match.pathRegex", "routes[3].stripPrefix",
                "routes[3].rewrite", "routes[3].rewrite.replacement", "routes[4].respond",
                "routes[4].respond.status");
        List<Map<String, String>> errors = Problems.errors(response);
        assertFalse(errors.stream().anyMatch(e -> e.get("field").equals("routes[0].name")), errors.toString());
    }

    @Test
    void aRouteIsStoredWithItsOverridesNormalisedAndItsDefaultsShown() {
        JsonArray routes = new JsonArray()
                .add(new JsonObject().put("match", new JsonObject().put("path", "/api/*")
                                .put("methods", new JsonArray().add("get")).put("headers", new JsonObject().put("X-A", "1")))
                        .put("stripPrefix", "/api").put("connectTimeout", "2000ms")
                        .put("access", new JsonObject().put("deny", new JsonArray().add("10.1.2.3"))))
                .add(new JsonObject().put("name", "old").put("match", new JsonObject().put("path", "/old/*"))
                        .put("redirect", new JsonObject().put("location", "/new/$path")))
                .add(new JsonObject().put("match", new JsonObject().put("path", "/healthz"))
                        .put("respond", new JsonObject().put("body", "fine")));
        String id = Api.create(withRoutes(routes));
        JsonArray stored = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).then().statusCode(200)
                .extract().asString()).getJsonArray("routes");
        JsonObject api = stored.getJsonObject(0);
        assertEquals("route-1", api.getString("name"));
        assertEquals("2s", api.getString("connectTimeout"));
        assertEquals(List.of("10.1.2.3/32"), api.getJsonObject("access").getJsonArray("deny").getList());
        assertEquals(List.of("GET"), api.getJsonObject("match").getJsonArray("methods").getList());
        assertEquals("1", api.getJsonObject("match").getJsonObject("headers").getString("x-a"));
        assertNull(api.getString("readTimeout"), "a field the route leaves out stays out: the vhost's applies");
        assertEquals(302, stored.getJsonObject(1).getJsonObject("redirect").getInteger("status"));
        JsonObject respond = stored.getJsonObject(2).getJsonObject("respond");
        assertEquals(200, respond.getInteger("status"));
        assertEquals("text/plain; charset=utf-8", respond.getString("contentType"));

        // What GET shows is accepted back as it is.
        JsonObject again = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).then().extract().asString());
        Api.given().header("If-Match", "*").body(again.encode()).put("/api/v1/vhosts/" + id).then()
                .statusCode(200);
    }
}
