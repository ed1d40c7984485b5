package dev.portico.control.api.auth;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertNoVhosts;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Every {@code /api} call needs the bearer token, known path or not; health and metrics on the management interface
 * need none.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class AuthTest {

    @TestHTTPResource(value = "/", management = true)
    URL management;

    @TestHTTPResource("/")
    URL api;

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    @Test
    void withoutAuthorizationTheApiAnswers401WithABearerChallenge() {
        Response response = RestAssured.given().get(VHOSTS);

        assertProblem(response, 401, "unauthorized")
                .header("WWW-Authenticate", startsWith("Bearer"));
    }

    @Test
    void aWrongTokenIs401AndChangesNothing() {
        Response response = RestAssured.given().header("Authorization", "Bearer not-the-token")
                .contentType(ContentType.JSON).body(Api.vhost("shop", "shop.example.com", "http://10.0.0.5").encode())
                .post(VHOSTS);

        assertProblem(response, 401, "unauthorized")
                .header("WWW-Authenticate", startsWith("Bearer"))
                .body("detail", containsString("not valid"));
        assertNoVhosts();
    }

    @Test
    void aTokenWithAnotherSchemeIs401SayingTheSchemeIsWrong() {
        Response response = RestAssured.given().header("Authorization", "Basic " + Api.TOKEN).get(VHOSTS);

        assertProblem(response, 401, "unauthorized")
                .body("detail", equalTo("The Authorization header uses the 'Basic' scheme; this API takes "
                        + "'Authorization: Bearer <token>'"));
    }

    @Test
    void theBearerSchemeWithoutATokenIs401SayingSo() {
        Response response = RestAssured.given().header("Authorization", "Bearer ").get(VHOSTS);

        assertProblem(response, 401, "unauthorized").body("detail", containsString("no token"));
    }

    @Test
    void aTokenThatOnlyStartsRightIs401() {
        Response response = RestAssured.given().header("Authorization", "Bearer " + Api.TOKEN + "x").get(VHOSTS);

        assertProblem(response, 401, "unauthorized");
    }

    @Test
    void theStatusEndpointNeedsTheTokenToo() {
        Response response = RestAssured.given().get("/api/v1/status");

        assertProblem(response, 401, "unauthorized");
    }

    @Test
    void theSchemeIsCaseInsensitive() {
        RestAssured.given().header("Authorization", "bearer " + Api.TOKEN).get(VHOSTS).then().statusCode(200);
        RestAssured.given().header("Authorization", "BEARER " + Api.TOKEN).get(VHOSTS).then().statusCode(200);
    }

    @Test
    void theTokenIsTakenWithoutTheSpacesAroundIt() {
        RestAssured.given().header("Authorization", "Bearer    " + Api.TOKEN + "   ").get(VHOSTS).then()
                .statusCode(200);
    }

    @Test
    void pathsThatOnlyNormaliseToTheApiStillNeedTheToken() throws Exception {
        for (String path : new String[]{"//api/v1/vhosts", "/./api/v1/vhosts", "/x/../api/v1/vhosts",
                "/%61pi/v1/vhosts", "/api/v1/%76hosts", "/api/v1/vhosts;x=1"}) {
            String raw = RawHttp.exchange(api.getPort(),
                    "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

            assertEquals(401, RawHttp.status(raw), path + " answered " + raw);
        }
    }

    @Test
    void anUnknownApiPathIs401WithoutTheToken() {
        Response response = RestAssured.given().get("/api/v1/nothing-here");

        assertProblem(response, 401, "unauthorized");
    }

    @Test
    void anUnknownApiPathIsAProblem404WithTheToken() {
        assertProblem(Api.given().get("/api/v1/nothing-here"), 404, "not-found");
        assertProblem(Api.given().get("/api/v2/vhosts"), 404, "not-found");
        assertProblem(Api.given().get("/api"), 404, "not-found");
    }

    @Test
    void anUnsupportedMethodIsAProblem405() {
        Response response = Api.given().patch(VHOSTS);

        assertProblem(response, 405, "method-not-allowed")
                .body("detail", startsWith("/api/v1/vhosts does not take PATCH"));
        // RFC 9110 section 15.5.6: the methods the resource does take.
        String allow = response.getHeader("Allow");
        assertNotNull(allow, "a 405 carries Allow");
        assertEquals("GET, HEAD, POST", allow);
        assertEquals(200, Api.given().head(VHOSTS).statusCode(), "what Allow lists is answered");
        Response onOne = Api.given().patch(VHOSTS + "/00000000-0000-0000-0000-000000000000");
        assertProblem(onOne, 405, "method-not-allowed");
        assertEquals("DELETE, GET, HEAD, PUT", onOne.getHeader("Allow"));
    }

    @Test
    void livenessReadinessAndMetricsAnswerWithoutAToken() {
        assertNotEquals(api.getPort(), management.getPort(), "health must not share the API port");

        RestAssured.given().baseUri(origin(management)).get("/q/health/live").then()
                .statusCode(200).body("status", equalTo("UP"));
        RestAssured.given().baseUri(origin(management)).get("/q/health/ready").then()
                .statusCode(200).body("status", equalTo("UP"));
        RestAssured.given().baseUri(origin(management)).get("/q/metrics").then()
                .statusCode(200).body(containsString("# TYPE"));
    }

    @Test
    void healthIsNotServedOnTheApiPort() {
        Response response = RestAssured.given().get("/q/health/live");

        response.then().statusCode(404);
    }

    private static String origin(URL url) {
        return url.getProtocol() + "://" + url.getHost() + ":" + url.getPort();
    }
}
