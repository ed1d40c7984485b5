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

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/v1/vhosts}: create, list, read, replace (with If-Match) and delete; defaults and normalisation. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class VhostApiTest {

    private static final String UPSTREAM = "http://10.0.0.5:8080";

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    @Test
    void createAnswers201WithLocationEtagIdAndVersion() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));

        created.then()
                .statusCode(201)
                .header("Content-Type", startsWith("application/json"))
                .body("id", matchesPattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"))
                .body("version", equalTo(1))
                .body("name", equalTo("shop"))
                .body("hostnames", contains("shop.example.com"))
                .body("upstreams[0].url", equalTo(UPSTREAM))
                .body("createdAt", notNullValue())
                .body("updatedAt", notNullValue());
        String id = created.path("id");
        assertThat(created.header("Location"), startsWith("http"));
        assertThat(created.header("Location"), endsWith(VHOSTS + "/" + id));
        assertEquals("\"1\"", created.header("ETag"));
    }

    @Test
    void locationHeaderLeadsToTheCreatedVhost() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));

        Response fetched = Api.given().get(created.header("Location"));

        fetched.then().statusCode(200).body("id", equalTo(created.path("id")));
    }

    @Test
    void createFillsInDefaults() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));

        created.then().statusCode(201)
                .body("enabled", is(true))
                .body("preserveHost", is(true))
                .body("securityHeaders", is(true))
                .body("connectTimeout", equalTo("5s"))
                .body("readTimeout", equalTo("60s"))
                .body("upstreams[0].weight", equalTo(1))
                .body("requestHeaders", equalTo(Map.of("set", Map.of(), "add", Map.of(), "remove", List.of())))
                .body("responseHeaders", equalTo(Map.of("set", Map.of(), "add", Map.of(), "remove", List.of())))
                .body("accessLog", equalTo(Map.of("enabled", true, "redactQuery", false)));
    }

    @Test
    void accessLogSettingsAreKeptAndHalfGivenOnesCompleted() {
        JsonObject body = Api.vhost("shop", "shop.example.com", UPSTREAM)
                .put("accessLog", new JsonObject().put("redactQuery", true));

        Response created = post(body);

        created.then().statusCode(201).body("accessLog", equalTo(Map.of("enabled", true, "redactQuery", true)));
        Api.given().get(VHOSTS + "/" + created.path("id")).then()
                .body("accessLog", equalTo(Map.of("enabled", true, "redactQuery", true)));
    }

    @Test
    void createNormalisesHostnamesAndDurations() {
        JsonObject body = Api.vhost("shop", "Shop.EXAMPLE.com.", UPSTREAM);
        body.getJsonArray("hostnames").add("*.Static.Example.COM");
        body.put("connectTimeout", "1500ms").put("readTimeout", "60000ms");

        Response created = post(body);

        created.then().statusCode(201)
                .body("hostnames", contains("shop.example.com", "*.static.example.com"))
                .body("connectTimeout", equalTo("1500ms"))
                .body("readTimeout", equalTo("1m"));
        Api.given().get(VHOSTS + "/" + created.path("id")).then()
                .body("hostnames", contains("shop.example.com", "*.static.example.com"))
                .body("readTimeout", equalTo("1m"));
    }

    @Test
    void durationsTakeTheirShortestExactForm() {
        JsonObject body = Api.vhost("shop", "shop.example.com", UPSTREAM)
                .put("connectTimeout", "120s").put("readTimeout", "3600000ms");

        Response created = post(body);

        created.then().statusCode(201).body("connectTimeout", equalTo("2m")).body("readTimeout", equalTo("1h"));
    }

    @Test
    void listIsOrderedByNameIgnoringCase() {
        Api.create(Api.vhost("charlie", "c.example.com", UPSTREAM));
        Api.create(Api.vhost("Alpha", "a.example.com", UPSTREAM));
        Api.create(Api.vhost("bravo", "b.example.com", UPSTREAM));

        Response list = Api.given().get(VHOSTS);

        list.then().statusCode(200).body("name", contains("Alpha", "bravo", "charlie"));
    }

    @Test
    void getShowsExactlyWhatCreateReturnedWithTheSameEtag() {
        Response created = post(withHeaderRules(Api.vhost("shop", "shop.example.com", UPSTREAM)));

        Response fetched = Api.given().get(VHOSTS + "/" + created.path("id"));

        fetched.then().statusCode(200).header("Content-Type", startsWith("application/json"));
        assertEquals(created.header("ETag"), fetched.header("ETag"));
        assertEquals(created.asString(), fetched.asString());
    }

    @Test
    void putReplacesTheWholeVhostAndReturnsTheNewVersion() {
        JsonObject original = Api.vhost("shop", "shop.example.com", UPSTREAM)
                .put("readTimeout", "10s").put("securityHeaders", false).put("preserveHost", false);
        String id = post(original).path("id");
        JsonObject replacement = Api.vhost("shop-v2", "www.example.com", "http://10.0.0.6:9090/base");

        Response replaced = put(id, replacement, null);

        replaced.then().statusCode(200)
                .body("id", equalTo(id))
                .body("version", equalTo(2))
                .body("name", equalTo("shop-v2"))
                .body("hostnames", contains("www.example.com"))
                .body("upstreams.url", contains("http://10.0.0.6:9090/base"))
                // omitted fields go back to their defaults: PUT replaces, it does not merge
                .body("readTimeout", equalTo("60s"))
                .body("securityHeaders", is(true))
                .body("preserveHost", is(true));
        assertEquals("\"2\"", replaced.header("ETag"));
    }

    @Test
    void everyPutIncreasesTheVersionAndGetShowsExactlyWhatPutReturned() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");
        long previous = ((Number) created.path("version")).longValue();
        for (int i = 1; i <= 3; i++) {
            JsonObject body = withHeaderRules(Api.vhost("shop", "shop.example.com", UPSTREAM))
                    .put("readTimeout", (10 * i) + "s");

            Response replaced = put(id, body, null);
            Response fetched = Api.given().get(VHOSTS + "/" + id);

            replaced.then().statusCode(200);
            long version = ((Number) replaced.path("version")).longValue();
            assertTrue(version > previous, "version " + version + " after " + previous);
            assertEquals("\"" + version + "\"", replaced.header("ETag"));
            assertEquals(replaced.header("ETag"), fetched.header("ETag"));
            assertEquals(replaced.asString(), fetched.asString());
            previous = version;
        }
    }

    @Test
    void createdAtSurvivesAPutWhileUpdatedAtMoves() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));

        Response replaced = put(created.path("id"), Api.vhost("shop", "shop.example.com", UPSTREAM), null);

        replaced.then().statusCode(200).body("createdAt", equalTo(created.path("createdAt")));
        Instant updatedBefore = Instant.parse(created.path("updatedAt"));
        Instant updatedAfter = Instant.parse(replaced.path("updatedAt"));
        assertTrue(updatedAfter.isAfter(updatedBefore), "updatedAt " + updatedAfter + " after " + updatedBefore);
    }

    @Test
    void ifMatchWithTheCurrentEtagSucceeds() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");

        Response replaced = put(id, Api.vhost("shop", "www.example.com", UPSTREAM), created.header("ETag"));

        replaced.then().statusCode(200).body("hostnames", contains("www.example.com"));
    }

    @Test
    void ifMatchAcceptsTheEtagAmongOthers() {
        String id = post(Api.vhost("shop", "shop.example.com", UPSTREAM)).path("id");

        put(id, Api.vhost("shop", "shop.example.com", UPSTREAM), "\"17\", \"1\"").then().statusCode(200);
        put(id, Api.vhost("shop", "shop.example.com", UPSTREAM), " \"a,b\" ,, \"2\" ").then().statusCode(200)
                .body("version", equalTo(3));
    }

    @Test
    void ifMatchWithoutQuotesIs400AndChangesNothing() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");

        for (String unquoted : new String[]{"1", "\"1\" 1", "W/1", "\"1", "\"1\", 1"}) {
            Response refused = put(id, Api.vhost("shop", "www.example.com", UPSTREAM), unquoted);

            assertInvalid(refused, "If-Match");
            assertProblem(Api.given().header("If-Match", unquoted).delete(VHOSTS + "/" + id), 400, "validation");
        }
        assertEquals(created.asString(), Api.given().get(VHOSTS + "/" + id).asString());
    }

    @Test
    void aWeakEtagNeverMatchesBecauseIfMatchComparesStrongly() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");

        Response refused = put(id, Api.vhost("shop", "www.example.com", UPSTREAM), "W/\"1\"");

        assertProblem(refused, 412, "stale-version");
        assertEquals(created.asString(), Api.given().get(VHOSTS + "/" + id).asString());
    }

    @Test
    void ifMatchWithAStaleVersionIs412AndChangesNothing() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");
        String staleEtag = created.header("ETag");
        put(id, Api.vhost("shop", "shop.example.com", UPSTREAM), staleEtag).then().statusCode(200);
        Response before = Api.given().get(VHOSTS + "/" + id);

        Response refused = put(id, Api.vhost("other", "other.example.com", UPSTREAM), staleEtag);

        assertProblem(refused, 412, "stale-version");
        Response after = Api.given().get(VHOSTS + "/" + id);
        assertEquals(before.asString(), after.asString());
    }

    @Test
    void racingPutsWithTheSameIfMatchLetExactlyOneWin() throws Exception {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");
        String etag = created.header("ETag");

        List<Response> responses = Concurrently.run(6, i -> put(id,
                Api.vhost("shop", "shop.example.com", UPSTREAM).put("readTimeout", (i + 1) + "s"), etag));

        List<Response> winners = responses.stream().filter(r -> r.statusCode() == 200).toList();
        assertEquals(1, winners.size(), "one PUT must win");
        for (Response response : responses) {
            if (response.statusCode() != 200) {
                assertProblem(response, 412, "stale-version");
            }
        }
        assertEquals(winners.get(0).asString(), Api.given().get(VHOSTS + "/" + id).asString());
        winners.get(0).then().body("version", equalTo(2));
    }

    @Test
    void ifMatchStarMatchesAnyVersion() {
        String id = post(Api.vhost("shop", "shop.example.com", UPSTREAM)).path("id");
        put(id, Api.vhost("shop", "shop.example.com", UPSTREAM), null).then().statusCode(200);

        Response replaced = put(id, Api.vhost("shop", "www.example.com", UPSTREAM), "*");

        replaced.then().statusCode(200).body("version", equalTo(3)).body("hostnames", contains("www.example.com"));
    }

    @Test
    void deleteWithAStaleIfMatchIs412AndKeepsTheVhost() {
        String id = post(Api.vhost("shop", "shop.example.com", UPSTREAM)).path("id");
        put(id, Api.vhost("shop", "shop.example.com", UPSTREAM), null).then().statusCode(200);

        Response refused = Api.given().header("If-Match", "\"1\"").delete(VHOSTS + "/" + id);

        assertProblem(refused, 412, "stale-version");
        Api.given().get(VHOSTS + "/" + id).then().statusCode(200);
    }

    @Test
    void deleteAnswers204AndTheVhostIsGone() {
        Response created = post(Api.vhost("shop", "shop.example.com", UPSTREAM));
        String id = created.path("id");

        Response deleted = Api.given().header("If-Match", created.header("ETag")).delete(VHOSTS + "/" + id);

        deleted.then().statusCode(204);
        assertProblem(Api.given().get(VHOSTS + "/" + id), 404, "not-found");
        assertNoVhosts();
    }

    @Test
    void unknownIdIs404ForGetPutAndDelete() {
        String unknown = VHOSTS + "/00000000-0000-4000-8000-000000000000";

        assertProblem(Api.given().get(unknown), 404, "not-found");
        assertProblem(Api.given().body(Api.vhost("shop", "shop.example.com", UPSTREAM).encode()).put(unknown),
                404, "not-found");
        assertProblem(Api.given().delete(unknown), 404, "not-found");
        assertNoVhosts();
    }

    @Test
    void anIdThatIsNoUuidIs404() {
        Response response = Api.given().get(VHOSTS + "/not-a-uuid");

        assertProblem(response, 404, "not-found");
    }

    @Test
    void anAcceptHeaderTheApiCannotServeIsAProblem406() {
        Response response = Api.given().accept("application/xml").get(VHOSTS);

        assertProblem(response, 406, "not-acceptable");
    }

    private static Response post(JsonObject body) {
        return Api.given().body(body.encode()).post(VHOSTS);
    }

    private static Response put(String id, JsonObject body, String ifMatch) {
        var spec = Api.given().body(body.encode());
        if (ifMatch != null) {
            spec.header("If-Match", ifMatch);
        }
        return spec.put(VHOSTS + "/" + id);
    }

    /** Header rules whose names differ in length and order, to catch storage that reorders them. */
    private static JsonObject withHeaderRules(JsonObject vhost) {
        return vhost
                .put("requestHeaders", new JsonObject()
                        .put("set", new JsonObject().put("X-Tenant-Identifier", "shop").put("X-B", "2"))
                        .put("add", new JsonObject().put("X-Long-Added-Header", "a").put("X-A", "b"))
                        .put("remove", new JsonArray().add("X-Zed").add("Cookie")))
                .put("responseHeaders", new JsonObject()
                        .put("set", new JsonObject().put("Cache-Control", "no-store").put("X-C", "3")));
    }
}
