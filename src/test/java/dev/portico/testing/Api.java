package dev.portico.testing;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Management API calls for tests, authenticated with the test profile's token. */
public final class Api {

    public static final String TOKEN = "test-admin-token";

    private Api() {
    }

    public static RequestSpecification given() {
        return RestAssured.given().header("Authorization", "Bearer " + TOKEN).contentType(ContentType.JSON);
    }

    /** A minimal valid vhost body. */
    /** A settings block ({@code cache}, {@code compression}) with {@code enabled: true} and the given pairs. */
    public static JsonObject enabled(Object... settings) {
        JsonObject block = new JsonObject().put("enabled", true);
        for (int i = 0; i + 1 < settings.length; i += 2) {
            block.put((String) settings[i], settings[i + 1]);
        }
        return block;
    }

    public static JsonObject vhost(String name, String hostname, String... upstreamUrls) {
        JsonArray upstreams = new JsonArray();
        for (String url : upstreamUrls) {
            upstreams.add(new JsonObject().put("url", url));
        }
        return new JsonObject().put("name", name).put("hostnames", new JsonArray().add(hostname))
                .put("upstreams", upstreams);
    }

    /** Creates a vhost and returns its id; fails the test unless the API answers 201. */
    public static String create(JsonObject vhost) {
        return given().body(vhost.encode()).post("/api/v1/vhosts").then().statusCode(201).extract().path("id");
    }

    public static void delete(String id) {
        given().delete("/api/v1/vhosts/" + id).then().statusCode(204);
    }

    /** Deletes every vhost, so each test starts from an empty configuration. */
    public static void deleteAll() {
        java.util.List<String> ids = given().get("/api/v1/vhosts").then().statusCode(200).extract().path("id");
        for (String id : ids) {
            delete(id);
        }
    }
}
