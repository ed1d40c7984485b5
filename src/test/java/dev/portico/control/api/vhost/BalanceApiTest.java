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
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/** The vhost API's balancing settings: defaults and normal forms shown back, every invalid field named. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class BalanceApiTest {

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    private static JsonObject vhost() {
        return Api.vhost("lb", "lb.example.com", "http://10.0.0.5", "http://10.0.0.6");
    }

    private static Response post(JsonObject body) {
        return Api.given().body(body.encode()).post(VHOSTS);
    }

    @Test
    void aVhostThatSaysNothingBalancesRoundRobinWithoutSlowStartOrBackups() {
        post(vhost()).then().statusCode(201)
                .body("balance", equalTo("round_robin"))
                .body("balanceBy", nullValue())
                .body("hashOn", nullValue())
                .body("sticky", nullValue())
                .body("slowStart", equalTo("0s"))
                .body("upstreams.backup", contains(false, false));
    }

    @Test
    void bareHashAndStickyTakeTheirDefaultsAndEverythingIsNormalised() {
        post(vhost().put("balance", "hash")).then().statusCode(201)
                .body("balance", equalTo("hash")).body("hashOn", equalTo("client_address"));
        Api.deleteAll();
        post(vhost().put("balance", "hash").put("hashOn", "header:X-Tenant")).then().statusCode(201)
                .body("hashOn", equalTo("header:x-tenant"));
        Api.deleteAll();
        post(vhost().put("balance", "sticky").put("slowStart", "30000ms")).then().statusCode(201)
                .body("sticky.cookie", equalTo("portico_sticky"))
                .body("sticky.ttl", equalTo("1h"))
                .body("slowStart", equalTo("30s"));
        Api.deleteAll();
        Response created = post(vhost().put("balance", "random_two").put("balanceBy", "latency")
                .put("upstreams", new JsonArray().add(new JsonObject().put("url", "http://10.0.0.5"))
                        .add(new JsonObject().put("url", "http://10.0.0.6").put("backup", true))));
        created.then().statusCode(201)
                .body("balance", equalTo("random_two"))
                .body("balanceBy", equalTo("latency"))
                .body("upstreams.backup", contains(false, true));
        String id = created.path("id");
        Api.given().header("If-Match", "\"1\"").body(created.asString()).put(VHOSTS + "/" + id)
                .then().statusCode(200).body("balanceBy", equalTo("latency"))
                .body("upstreams.backup", contains(false, true));
        Api.deleteAll();
        post(vhost().put("balance", "random_two")).then().statusCode(201).body("balanceBy", equalTo("in_flight"));
        Api.deleteAll();
        post(vhost().put("balance", "sticky").put("sticky", new JsonObject().put("cookie", "lb").put("ttl", "7d")))
                .then().statusCode(201).body("sticky.cookie", equalTo("lb")).body("sticky.ttl", equalTo("7d"));
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                invalid("unknown policy", "balance", v -> v.put("balance", "ip_hash")),
                invalid("policy in upper case", "balance", v -> v.put("balance", "LEAST_CONN")),
                invalid("balance not a string", "balance", v -> v.put("balance", 3)),
                invalid("unknown comparison", "balanceBy",
                        v -> v.put("balance", "random_two").put("balanceBy", "cpu")),
                invalid("balanceBy for another policy", "balanceBy",
                        v -> v.put("balance", "least_conn").put("balanceBy", "latency")),
                invalid("hashOn without hash", "hashOn", v -> v.put("hashOn", "path")),
                invalid("unknown hash key", "hashOn", v -> v.put("balance", "hash").put("hashOn", "query")),
                invalid("header without a name", "hashOn", v -> v.put("balance", "hash").put("hashOn", "header:")),
                invalid("cookie name with a space", "hashOn",
                        v -> v.put("balance", "hash").put("hashOn", "cookie:a b")),
                invalid("sticky for round robin", "sticky", v -> v.put("sticky", new JsonObject())),
                invalid("sticky cookie name", "sticky.cookie",
                        v -> v.put("balance", "sticky").put("sticky", new JsonObject().put("cookie", "a;b"))),
                invalid("sticky ttl zero", "sticky.ttl",
                        v -> v.put("balance", "sticky").put("sticky", new JsonObject().put("ttl", "0s"))),
                invalid("sticky ttl too long", "sticky.ttl",
                        v -> v.put("balance", "sticky").put("sticky", new JsonObject().put("ttl", "400d"))),
                invalid("sticky ttl not a duration", "sticky.ttl",
                        v -> v.put("balance", "sticky").put("sticky", new JsonObject().put("ttl", "soon"))),
                invalid("sticky not an object", "sticky", v -> v.put("balance", "sticky").put("sticky", "yes")),
                invalid("slow start too long", "slowStart", v -> v.put("slowStart", "2h")),
                invalid("slow start not a duration", "slowStart", v -> v.put("slowStart", "fast")),
                invalid("slow start with hash", "slowStart", v -> v.put("balance", "hash").put("slowStart", "30s")),
                invalid("backup not a boolean", "upstreams[1].backup", v -> v.put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", "http://10.0.0.5"))
                        .add(new JsonObject().put("url", "http://10.0.0.6").put("backup", "yes")))),
                invalid("every upstream a backup", "upstreams[1].backup", v -> v.put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", "http://10.0.0.5").put("backup", true))
                        .add(new JsonObject().put("url", "http://10.0.0.6").put("backup", true)))));
    }

    private static Arguments invalid(String why, String field, Consumer<JsonObject> change) {
        JsonObject body = vhost();
        change.accept(body);
        return Arguments.of(why, field, body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void anInvalidSettingIsRefusedByName(String why, String field, JsonObject body) {
        assertInvalid(post(body), field);
        assertNoVhosts();
    }

    @Test
    void everyBadFieldIsNamedAtOnce() {
        Response response = post(vhost().put("balance", "sticky").put("hashOn", "path").put("slowStart", "1d")
                .put("sticky", new JsonObject().put("cookie", "").put("ttl", "-1s")));
        assertInvalid(response, "hashOn", "slowStart", "sticky.cookie", "sticky.ttl");
        response.then().body("errors.field", containsInAnyOrder("hashOn", "slowStart", "sticky.cookie",
                "sticky.ttl"));
    }
}
