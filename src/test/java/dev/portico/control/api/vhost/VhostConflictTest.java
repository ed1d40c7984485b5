package dev.portico.control.api.vhost;

import dev.portico.testing.Api;
import dev.portico.testing.Concurrently;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Names (case-insensitive) and host names (exact or wildcard) belong to one vhost only; a change that would share
 * one is refused with 409 naming the field and the owner, and leaves nothing half-stored.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class VhostConflictTest {

    private static final String UPSTREAM = "http://10.0.0.5:8080";

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    @Test
    void aNameUsedByAnotherVhostIgnoringCaseIs409() {
        Api.create(Api.vhost("Shop", "shop.example.com", UPSTREAM));

        Response response = post(Api.vhost("sHOP", "other.example.com", UPSTREAM));

        assertProblem(response, 409, "conflict")
                .body("errors.field", contains("name"))
                .body("errors[0].reason", containsString("Shop"));
        assertOnlyVhosts("Shop");
    }

    @Test
    void anExactHostnameOfAnotherVhostIs409NamingTheIndexAndTheOwner() {
        Api.create(vhost("alpha", "a.example.com", "*.shared.example.com"));

        Response response = post(vhost("beta", "b.example.com", "A.Example.COM"));

        assertProblem(response, 409, "conflict")
                .body("errors.field", contains("hostnames[1]"))
                .body("errors[0].reason", containsString("a.example.com"))
                .body("errors[0].reason", containsString("'alpha'"));
        assertOnlyVhosts("alpha");
    }

    @Test
    void aWildcardOfAnotherVhostIs409IgnoringCase() {
        Api.create(vhost("alpha", "a.example.com", "*.shared.example.com"));

        Response response = post(vhost("beta", "*.SHARED.example.com."));

        assertProblem(response, 409, "conflict")
                .body("errors.field", contains("hostnames[0]"))
                .body("errors[0].reason", containsString("'alpha'"));
        assertOnlyVhosts("alpha");
    }

    @Test
    void everySharedHostnameIsListed() {
        Api.create(vhost("alpha", "a.example.com"));
        Api.create(vhost("gamma", "c.example.com"));

        Response response = post(vhost("beta", "c.example.com", "b.example.com", "a.example.com"));

        assertProblem(response, 409, "conflict").body("errors.field", contains("hostnames[0]", "hostnames[2]"));
        response.then().body("detail", containsString("2 host names"))
                .body("errors[0].reason", containsString("'gamma'"))
                .body("errors[1].reason", containsString("'alpha'"));
    }

    @Test
    void aWildcardAndAnExactNameUnderItAreNoConflict() {
        Api.create(vhost("alpha", "*.example.com"));

        Response response = post(vhost("beta", "shop.example.com"));

        response.then().statusCode(201);
    }

    @Test
    void aRefusedCreateLeavesNoHostnameBehind() {
        Api.create(vhost("alpha", "a.example.com"));
        post(vhost("beta", "b.example.com", "a.example.com")).then().statusCode(409);

        Response retry = post(vhost("beta", "b.example.com"));

        retry.then().statusCode(201);
        assertOnlyVhosts("alpha", "beta");
    }

    @Test
    void aPutThatTakesAnotherVhostsHostnameIs409AndChangesNothing() {
        Api.create(vhost("alpha", "a.example.com"));
        String beta = Api.create(vhost("beta", "b.example.com"));
        String before = Api.given().get(VHOSTS + "/" + beta).asString();

        Response response = put(beta, vhost("beta", "b.example.com", "new.example.com", "a.example.com"));

        assertProblem(response, 409, "conflict")
                .body("errors.field", contains("hostnames[2]"))
                .body("errors[0].reason", containsString("'alpha'"));
        assertEquals(before, Api.given().get(VHOSTS + "/" + beta).asString());
        // new.example.com was not stored half-way: another vhost can still take it
        post(vhost("gamma", "new.example.com")).then().statusCode(201);
    }

    @Test
    void aPutThatTakesAnotherVhostsNameIs409() {
        Api.create(vhost("alpha", "a.example.com"));
        String beta = Api.create(vhost("beta", "b.example.com"));

        Response response = put(beta, vhost("ALPHA", "b.example.com"));

        assertProblem(response, 409, "conflict").body("errors.field", contains("name"));
        Api.given().get(VHOSTS + "/" + beta).then().body("name", equalTo("beta")).body("version", equalTo(1));
    }

    @Test
    void aVhostKeepsItsOwnNameAndHostnamesOnPut() {
        String alpha = Api.create(vhost("alpha", "a.example.com", "*.a.example.com"));

        Response response = put(alpha, vhost("Alpha", "*.A.example.com", "a.example.com", "www.example.com"));

        response.then().statusCode(200)
                .body("name", equalTo("Alpha"))
                .body("hostnames", contains("*.a.example.com", "a.example.com", "www.example.com"))
                .body("version", equalTo(2));
    }

    @Test
    void aHostnameMovesToAnotherVhostOnceReleased() {
        String alpha = Api.create(vhost("alpha", "a.example.com", "moving.example.com"));
        String beta = Api.create(vhost("beta", "b.example.com"));
        put(alpha, vhost("alpha", "a.example.com")).then().statusCode(200);

        Response response = put(beta, vhost("beta", "b.example.com", "moving.example.com"));

        response.then().statusCode(200).body("hostnames", contains("b.example.com", "moving.example.com"));
    }

    @Test
    void racingCreatesWithOneNameStoreExactlyOneAndRefuseTheRestWith409() throws Exception {
        List<Response> responses = Concurrently.run(6, i -> post(vhost("race", "race" + i + ".example.com")));

        long created = responses.stream().filter(r -> r.statusCode() == 201).count();
        assertEquals(1, created);
        for (Response response : responses) {
            if (response.statusCode() != 201) {
                assertProblem(response, 409, "conflict").body("errors.field", contains("name"));
            }
        }
        assertOnlyVhosts("race");
    }

    @Test
    void racingCreatesWithOneHostnameStoreExactlyOneAndRefuseTheRestWith409() throws Exception {
        List<Response> responses = Concurrently.run(6, i -> post(vhost("race" + i, "race.example.com")));

        long created = responses.stream().filter(r -> r.statusCode() == 201).count();
        assertEquals(1, created);
        for (Response response : responses) {
            if (response.statusCode() != 201) {
                assertProblem(response, 409, "conflict").body("errors[0].field", startsWith("hostnames"));
            }
        }
        Api.given().get(VHOSTS).then().body("size()", is(1));
    }

    private static JsonObject vhost(String name, String... hostnames) {
        JsonObject body = Api.vhost(name, hostnames[0], UPSTREAM);
        JsonArray list = new JsonArray();
        for (String hostname : hostnames) {
            list.add(hostname);
        }
        return body.put("hostnames", list);
    }

    private static Response post(JsonObject body) {
        return Api.given().body(body.encode()).post(VHOSTS);
    }

    private static Response put(String id, JsonObject body) {
        return Api.given().body(body.encode()).put(VHOSTS + "/" + id);
    }

    private static void assertOnlyVhosts(String... names) {
        Api.given().get(VHOSTS).then().statusCode(200)
                .body("size()", is(names.length))
                .body("name", contains(names));
    }
}
