package dev.portico.testing;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.function.Predicate;

/** Reads {@code GET /api/v1/vhosts/{id}/upstreams}, and waits for an upstream to reach a state. */
public final class UpstreamStates {

    private UpstreamStates() {
    }

    /** The vhost's upstreams, as the endpoint lists them. */
    public static JsonArray of(String vhostId) {
        String body = Api.given().get("/api/v1/vhosts/" + vhostId + "/upstreams").then().statusCode(200).extract()
                .asString();
        return new JsonObject(body).getJsonArray("upstreams");
    }

    /** Upstream {@code index} of the vhost. */
    public static JsonObject upstream(String vhostId, int index) {
        return of(vhostId).getJsonObject(index);
    }

    /** Waits until upstream {@code index} is in {@code state} and returns it as then shown. */
    public static JsonObject await(String vhostId, int index, String state) {
        return await(vhostId, index, state, Duration.ofSeconds(10));
    }

    public static JsonObject await(String vhostId, int index, String state, Duration timeout) {
        Predicate<JsonObject> in = upstream -> state.equals(upstream.getString("state"));
        return Eventually.value(timeout, () -> upstream(vhostId, index), in);
    }
}
