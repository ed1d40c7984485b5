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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static dev.portico.testing.Problems.assertProblem;
import static dev.portico.testing.Problems.errors;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every invalid vhost is refused with a 400 problem naming each bad field, and nothing is stored: on create the list
 * stays empty, on replace the vhost keeps its version and content.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class VhostValidationTest {

    private static final String UPSTREAM = "http://10.0.0.5:8080";

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    /** One invalid variation of a valid vhost and the field the API must name for it. */
    static Stream<Arguments> invalidVhosts() {
        return Stream.of(
                invalid("missing name", "name", v -> v.remove("name")),
                invalid("blank name", "name", v -> v.put("name", "  ")),
                invalid("name with a space", "name", v -> v.put("name", "my shop")),
                invalid("name starting with a dash", "name", v -> v.put("name", "-shop")),
                invalid("name of 64 characters", "name", v -> v.put("name", "a".repeat(64))),
                invalid("missing hostnames", "hostnames", v -> v.remove("hostnames")),
                invalid("empty hostnames", "hostnames", v -> v.put("hostnames", new JsonArray())),
                invalid("blank hostname", "hostnames[0]", v -> v.put("hostnames", new JsonArray().add(" "))),
                invalid("hostname with a space", "hostnames[0]",
                        v -> v.put("hostnames", new JsonArray().add("shop example.com"))),
                invalid("hostname with an empty label", "hostnames[1]",
                        v -> v.put("hostnames", new JsonArray().add("shop.example.com").add("a..example.com"))),
                invalid("hostname with a port", "hostnames[0]",
                        v -> v.put("hostnames", new JsonArray().add("shop.example.com:8080"))),
                invalid("wildcard in the middle", "hostnames[0]",
                        v -> v.put("hostnames", new JsonArray().add("shop.*.example.com"))),
                invalid("wildcard as part of a label", "hostnames[0]",
                        v -> v.put("hostnames", new JsonArray().add("*shop.example.com"))),
                invalid("hostname listed twice", "hostnames[1]",
                        v -> v.put("hostnames", new JsonArray().add("shop.example.com").add("SHOP.example.com."))),
                invalid("missing upstreams", "upstreams", v -> v.remove("upstreams")),
                invalid("empty upstreams", "upstreams", v -> v.put("upstreams", new JsonArray())),
                invalid("65 upstreams", "upstreams", v -> v.put("upstreams", upstreams(65))),
                invalid("upstream without url", "upstreams[0].url",
                        v -> v.put("upstreams", new JsonArray().add(new JsonObject().put("weight", 2)))),
                invalid("ftp upstream", "upstreams[0].url", v -> upstreamUrl(v, "ftp://10.0.0.5/")),
                invalid("upstream without scheme", "upstreams[0].url", v -> upstreamUrl(v, "10.0.0.5:8080")),
                invalid("upstream without host", "upstreams[0].url", v -> upstreamUrl(v, "http:///path")),
                invalid("upstream with a query", "upstreams[0].url", v -> upstreamUrl(v, "http://10.0.0.5/?a=1")),
                invalid("upstream with a fragment", "upstreams[0].url", v -> upstreamUrl(v, "http://10.0.0.5/#top")),
                invalid("upstream with user info", "upstreams[0].url",
                        v -> upstreamUrl(v, "http://user:secret@10.0.0.5/")),
                invalid("upstream port 0", "upstreams[0].url", v -> upstreamUrl(v, "http://10.0.0.5:0")),
                invalid("upstream port 70000", "upstreams[0].url", v -> upstreamUrl(v, "http://10.0.0.5:70000")),
                invalid("weight 0", "upstreams[0].weight", v -> weight(v, 0)),
                invalid("weight 101", "upstreams[0].weight", v -> weight(v, 101)),
                invalid("negative weight", "upstreams[0].weight", v -> weight(v, -1)),
                invalid("duration without unit", "connectTimeout", v -> v.put("connectTimeout", "5")),
                invalid("duration that is no number", "readTimeout", v -> v.put("readTimeout", "abc")),
                invalid("zero duration", "connectTimeout", v -> v.put("connectTimeout", "0s")),
                invalid("duration over an hour", "readTimeout", v -> v.put("readTimeout", "2h")),
                invalid("duration in days", "readTimeout", v -> v.put("readTimeout", "1d")),
                invalid("negative duration", "readTimeout", v -> v.put("readTimeout", "-5s")),
                invalid("websocket idle timeout over a week", "websocketIdleTimeout",
                        v -> v.put("websocketIdleTimeout", "8d")),
                invalid("zero websocket idle timeout", "websocketIdleTimeout",
                        v -> v.put("websocketIdleTimeout", "0s")),
                invalid("websocket idle timeout without unit", "websocketIdleTimeout",
                        v -> v.put("websocketIdleTimeout", "60")),
                invalid("websocket that is no boolean", "websocket", v -> v.put("websocket", "yes")),
                invalid("set Connection", "requestHeaders.set.Connection",
                        v -> rules(v, "requestHeaders", "set", Map.of("Connection", "close"))),
                invalid("add Transfer-Encoding", "responseHeaders.add.Transfer-Encoding",
                        v -> rules(v, "responseHeaders", "add", Map.of("Transfer-Encoding", "chunked"))),
                invalid("remove Keep-Alive", "requestHeaders.remove[0]",
                        v -> v.put("requestHeaders", new JsonObject().put("remove", new JsonArray().add("Keep-Alive")))),
                invalid("set Content-Length", "responseHeaders.set.Content-Length",
                        v -> rules(v, "responseHeaders", "set", Map.of("Content-Length", "5"))),
                invalid("add Via", "requestHeaders.add.Via", v -> rules(v, "requestHeaders", "add", Map.of("Via", "x"))),
                invalid("set X-Request-Id", "requestHeaders.set.X-Request-Id",
                        v -> rules(v, "requestHeaders", "set", Map.of("X-Request-Id", "abc"))),
                invalid("remove x-request-id in lower case", "responseHeaders.remove[0]",
                        v -> v.put("responseHeaders", new JsonObject().put("remove", new JsonArray().add("x-request-id")))),
                invalid("header value with CR LF", "responseHeaders.set.X-Evil",
                        v -> rules(v, "responseHeaders", "set", Map.of("X-Evil", "a\r\nSet-Cookie: b=c"))),
                invalid("header value with LF", "requestHeaders.add.X-Evil",
                        v -> rules(v, "requestHeaders", "add", Map.of("X-Evil", "a\nb"))),
                invalid("header name with a space", "requestHeaders.set.X Bad",
                        v -> rules(v, "requestHeaders", "set", Map.of("X Bad", "1"))),
                invalid("remove Host", "requestHeaders.remove[0]",
                        v -> v.put("requestHeaders", new JsonObject().put("remove", new JsonArray().add("Host")))),
                invalid("add Host", "requestHeaders.add.Host",
                        v -> rules(v, "requestHeaders", "add", Map.of("Host", "other.example.com"))),
                invalid("set Host on responses", "responseHeaders.set.Host",
                        v -> rules(v, "responseHeaders", "set", Map.of("Host", "other.example.com"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidVhosts")
    void createRefusesAnInvalidFieldAndStoresNothing(String description, String field, String body) {
        Response response = Api.given().body(body).post(VHOSTS);

        assertInvalid(response, field);
        assertNoVhosts();
    }

    /** A sample of {@link #invalidVhosts()}, one of each kind of rule: replace shares the validation of create. */
    static Stream<Arguments> invalidReplacements() {
        Set<String> sample = Set.of("blank name", "empty hostnames", "wildcard in the middle", "hostname listed twice",
                "65 upstreams", "upstream with user info", "weight 101", "zero duration", "set Connection",
                "header value with CR LF", "remove Host");
        return invalidVhosts().filter(arguments -> sample.contains((String) arguments.get()[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidReplacements")
    void replaceRefusesAnInvalidFieldAndKeepsTheVhost(String description, String field, String body) {
        Response created = Api.given().body(valid().encode()).post(VHOSTS);
        String id = created.then().statusCode(201).extract().path("id");

        Response response = Api.given().body(body).put(VHOSTS + "/" + id);

        assertInvalid(response, field);
        Response after = Api.given().get(VHOSTS + "/" + id);
        assertEquals(created.asString(), after.asString());
    }

    @Test
    void setHostOnRequestsIsAllowed() {
        JsonObject body = rules(valid(), "requestHeaders", "set", Map.of("Host", "internal.example.com"));

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        response.then().statusCode(201).body("requestHeaders.set.Host", equalTo("internal.example.com"));
    }

    @Test
    void ipAddressesAndAWildcardAreValidHostnames() {
        JsonObject body = valid().put("hostnames", new JsonArray().add("*.example.com").add("192.0.2.10").add("[::1]"));

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        response.then().statusCode(201).body("hostnames", contains("*.example.com", "192.0.2.10", "[::1]"));
    }

    @Test
    void webSocketSettingsDefaultToOnForAnHourAndReadBackNormalised() {
        Api.given().body(valid().encode()).post(VHOSTS).then().statusCode(201)
                .body("websocket", equalTo(true)).body("websocketIdleTimeout", equalTo("1h"));
        JsonObject off = valid().put("name", "ws-off").put("hostnames", new JsonArray().add("ws-off.example.com"))
                .put("websocket", false).put("websocketIdleTimeout", "5400s");

        Api.given().body(off.encode()).post(VHOSTS).then().statusCode(201)
                .body("websocket", equalTo(false)).body("websocketIdleTimeout", equalTo("90m"));
        JsonObject week = valid().put("name", "ws-week").put("hostnames", new JsonArray().add("ws-week.example.com"))
                .put("websocketIdleTimeout", "7d");
        Api.given().body(week.encode()).post(VHOSTS).then().statusCode(201).body("websocketIdleTimeout", equalTo("7d"));
    }

    @Test
    void theBoundariesOfEveryRangeAreAccepted() {
        JsonObject body = valid()
                .put("name", "a".repeat(63))
                .put("upstreams", upstreams(64))
                .put("connectTimeout", "1ms")
                .put("readTimeout", "1h");
        body.getJsonArray("upstreams").getJsonObject(0).put("weight", 1);
        body.getJsonArray("upstreams").getJsonObject(1).put("weight", 100);
        body.getJsonArray("upstreams").getJsonObject(2).put("url", "https://[2001:db8::1]:65535/base");

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        response.then().statusCode(201).body("upstreams.size()", equalTo(64));
    }

    @Test
    void headerNamesDifferingOnlyInCaseAreRefused() {
        JsonObject body = valid().put("responseHeaders", new JsonObject()
                .put("set", new JsonObject().put("X-Frame-Options", "DENY").put("x-frame-options", "SAMEORIGIN")));

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "responseHeaders.set.x-frame-options");
        assertNoVhosts();
    }

    @Test
    void anUnknownFieldIsRefusedByName() {
        JsonObject body = valid();
        body.put("upstream", body.remove("upstreams"));

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "upstream");
        assertNoVhosts();
    }

    @Test
    void anUnknownNestedFieldIsRefusedWithItsPath() {
        JsonObject body = valid();
        body.getJsonArray("upstreams").getJsonObject(0).put("wieght", 2);

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "upstreams[0].wieght");
        assertNoVhosts();
    }

    @Test
    void aValueOfTheWrongJsonTypeIsRefusedByPath() {
        JsonObject body = valid();
        body.getJsonArray("upstreams").getJsonObject(0).put("weight", "abc");

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "upstreams[0].weight").body("errors[0].reason", containsString("whole number"));
        assertNoVhosts();
    }

    @Test
    void numbersAreNotCoercedIntoAWeight() {
        for (Object weight : new Object[]{1.5, "2"}) {
            JsonObject body = valid();
            body.getJsonArray("upstreams").getJsonObject(0).put("weight", weight);

            Response response = Api.given().body(body.encode()).post(VHOSTS);

            assertInvalid(response, "upstreams[0].weight");
            assertNoVhosts();
        }
    }

    @Test
    void whatGetShowsCanBePutBackAsIs() {
        String created = Api.given().body(valid().encode()).post(VHOSTS).then().statusCode(201).extract().asString();
        JsonObject view = new JsonObject(created);
        view.put("readTimeout", "30s");

        Api.given().body(view.encode()).put(VHOSTS + "/" + view.getString("id")).then().statusCode(200)
                .body("readTimeout", org.hamcrest.Matchers.equalTo("30s"))
                .body("version", org.hamcrest.Matchers.equalTo(view.getInteger("version") + 1));
    }

    @Test
    void aNumberTooLargeForAWeightIsRefusedByPath() {
        JsonObject body = valid();
        body.getJsonArray("upstreams").getJsonObject(0).put("weight", 99_999_999_999L);

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "upstreams[0].weight");
        assertNoVhosts();
    }

    @Test
    void aStringWhereABooleanBelongsIsRefusedByName() {
        JsonObject body = valid().put("enabled", "yes");

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "enabled");
        assertNoVhosts();
    }

    @Test
    void accessLogSettingsAreStrictlyTyped() {
        JsonObject wrongType = valid().put("accessLog", new JsonObject().put("enabled", "no"));
        assertInvalid(Api.given().body(wrongType.encode()).post(VHOSTS), "accessLog.enabled");

        JsonObject unknown = valid().put("accessLog", new JsonObject().put("redactQueries", true));
        assertInvalid(Api.given().body(unknown.encode()).post(VHOSTS), "accessLog.redactQueries");
        assertNoVhosts();
    }

    @Test
    void anObjectWhereAListBelongsIsRefusedByPath() {
        JsonObject body = valid().put("hostnames", new JsonObject().put("a", "b"));

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response, "hostnames");
        assertNoVhosts();
    }

    @Test
    void malformedJsonIsRefused() {
        Response response = Api.given().body("{\"name\": \"shop\", ").post(VHOSTS);

        assertProblem(response, 400, "malformed-json").body("errors.field", hasItem("body"));
        assertNoVhosts();
    }

    @Test
    void aBodyThatIsNoObjectIsRefused() {
        Response response = Api.given().body("[1, 2]").post(VHOSTS);

        assertInvalid(response, "body");
        assertNoVhosts();
    }

    @Test
    void anEmptyBodyIsRefused() {
        Response response = Api.given().body("").post(VHOSTS);

        assertInvalid(response, "body");
        assertNoVhosts();
    }

    @Test
    void aBodyThatIsNotJsonIsRefusedAsUnsupported() {
        Response response = Api.given().contentType("text/plain").body("name=shop").post(VHOSTS);

        assertProblem(response, 415, "unsupported-media-type")
                .body("detail", equalTo("The body must be JSON, sent with Content-Type: application/json"));
        assertNoVhosts();
    }

    @Test
    void severalBadFieldsAreAllListed() {
        JsonObject body = new JsonObject()
                .put("name", "bad name")
                .put("hostnames", new JsonArray().add("ok.example.com").add("a.*.example.com"))
                .put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", "ftp://x").put("weight", 0))
                        .add(new JsonObject().put("url", "http://fine.example.com")))
                .put("connectTimeout", "5")
                .put("readTimeout", "2h")
                .put("responseHeaders", new JsonObject().put("set", new JsonObject().put("Via", "me")));

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response).body("errors.field", containsInAnyOrder("name", "hostnames[1]",
                "upstreams[0].weight", "upstreams[0].url", "connectTimeout", "readTimeout",
                "responseHeaders.set.Via"));
        List<Map<String, String>> errors = errors(response);
        assertEquals(7, errors.size());
        response.then().body("detail", containsString("7"));
        assertNoVhosts();
    }

    @Test
    void aValueOfTheWrongTypeIsListedWithEveryOtherInvalidField() {
        String body = "{\"name\":\"bad name!\",\"hostnames\":\"x\",\"upstreams\":[{\"url\":\"ftp://x\"}]}";

        Response response = Api.given().body(body).post(VHOSTS);

        assertInvalid(response).body("errors.field", containsInAnyOrder("name", "hostnames", "upstreams[0].url"))
                .body("detail", containsString("3 fields"));
        assertEquals("has the wrong type: must be an array", reasonFor(response, "hostnames"));
        assertNoVhosts();
    }

    @Test
    void everyValueOfTheWrongTypeIsListed() {
        JsonObject body = valid()
                .put("enabled", "yes")
                .put("upstreams", new JsonArray()
                        .add(new JsonObject().put("url", UPSTREAM).put("weight", "2"))
                        .add(new JsonObject().put("url", 5).put("weight", 1.5)))
                .put("readTimeout", 30)
                .put("responseHeaders", new JsonObject().put("set", new JsonObject().put("X-A", 1)))
                .put("cache", new JsonObject().put("enabled", 1).put("ignoreQueryParams", "utm_source"))
                .put("static", new JsonObject().put("root", "/srv/site").put("index", new JsonArray().add(true)))
                .put("upstream", "typo");

        Response response = Api.given().body(body.encode()).post(VHOSTS);

        assertInvalid(response).body("errors.field", containsInAnyOrder("enabled", "upstreams[0].weight",
                "upstreams[1].url", "upstreams[1].weight", "readTimeout", "responseHeaders.set.X-A", "cache.enabled",
                "cache.ignoreQueryParams", "static.index[0]", "upstream"));
        assertEquals("is not a known field", reasonFor(response, "upstream"));
        assertEquals("has the wrong type: must be a whole number", reasonFor(response, "upstreams[1].weight"));
        assertNoVhosts();
    }

    @Test
    void aNumberIsNotAString() {
        Response response = Api.given().body(valid().put("name", 5).encode()).post(VHOSTS);

        assertInvalid(response, "name");
        assertEquals("has the wrong type: must be a string", reasonFor(response, "name"));
        assertNoVhosts();
    }

    @Test
    void aKeyGivenTwiceIsRefusedByPath() {
        String topLevel = "{\"name\": \"shop\", \"name\": \"other\", \"hostnames\": [\"shop.example.com\"], "
                + "\"upstreams\": [{\"url\": \"" + UPSTREAM + "\"}]}";
        String nested = "{\"name\": \"shop\", \"hostnames\": [\"shop.example.com\"], \"upstreams\": "
                + "[{\"url\": \"" + UPSTREAM + "\"}, {\"url\": \"" + UPSTREAM + "\", \"url\": \"http://x\"}]}";

        assertInvalid(Api.given().body(topLevel).post(VHOSTS), "name");
        assertInvalid(Api.given().body(nested).post(VHOSTS), "upstreams[1].url")
                .body("errors[0].reason", containsString("twice"));
        assertNoVhosts();
    }

    @Test
    void timeoutErrorsListOnlyTheUnitsATimeoutTakes() {
        for (String value : new String[]{"5x", "1d"}) {
            Response response = Api.given().body(valid().put("connectTimeout", value).encode()).post(VHOSTS);

            assertInvalid(response, "connectTimeout");
            assertEquals("must be a whole number followed by ms, s, m or h, e.g. 5s",
                    reasonFor(response, "connectTimeout"));
        }
        assertNoVhosts();
    }

    private static String reasonFor(Response response, String field) {
        return errors(response).stream().filter(e -> e.get("field").equals(field)).map(e -> e.get("reason"))
                .findFirst().orElseThrow(() -> new AssertionError(field + " not named in " + response.asString()));
    }

    /** Arguments: description, field to be named, and the invalid body (a string, so Quarkus can pass it on). */
    private static Arguments invalid(String description, String field, Consumer<JsonObject> breaker) {
        JsonObject body = valid();
        breaker.accept(body);
        return Arguments.of(description, field, body.encode());
    }

    private static JsonObject valid() {
        return Api.vhost("shop", "shop.example.com", UPSTREAM);
    }

    private static JsonArray upstreams(int count) {
        JsonArray upstreams = new JsonArray();
        for (int i = 0; i < count; i++) {
            upstreams.add(new JsonObject().put("url", "http://10.0.1." + (i + 1) + ":8080"));
        }
        return upstreams;
    }

    private static void upstreamUrl(JsonObject vhost, String url) {
        vhost.put("upstreams", new JsonArray().add(new JsonObject().put("url", url)));
    }

    private static void weight(JsonObject vhost, int weight) {
        vhost.put("upstreams", new JsonArray().add(new JsonObject().put("url", UPSTREAM).put("weight", weight)));
    }

    private static JsonObject rules(JsonObject vhost, String side, String kind, Map<String, String> headers) {
        JsonObject map = new JsonObject();
        headers.forEach(map::put);
        return vhost.put(side, new JsonObject().put(kind, map));
    }
}
