package dev.portico.control.api.auth;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.SseEvents;
import dev.portico.testing.SseEvents.Event;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.http.HttpClient;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dashboard sessions: the admin token is exchanged for a cookie, which then authenticates {@code /api} calls, with a
 * CSRF token for state-changing ones and an Origin check; signing out revokes it.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SessionTest {

    static final String SESSION = "/api/v1/session";
    private static final String CSRF = "X-Portico-Csrf";

    @TestHTTPResource("/")
    URL api;

    @Inject
    SessionCookies cookies;

    /** A signed-in browser: the cookie's value, the CSRF token, and the whole Set-Cookie header it got. */
    record Signed(String cookie, String csrf, String setCookie) {

        RequestSpecification given() {
            return RestAssured.given().cookie(SessionCookies.NAME, cookie).contentType(ContentType.JSON);
        }
    }

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    static Signed signIn() {
        Response response = RestAssured.given().contentType(ContentType.JSON)
                .body(new JsonObject().put("token", Api.TOKEN).encode()).post(SESSION);
        response.then().statusCode(200);
        String setCookie = response.getHeader("Set-Cookie");
        assertNotNull(setCookie, "signing in sets the cookie");
        String value = setCookie.substring(setCookie.indexOf('=') + 1, setCookie.indexOf(';'));
        return new Signed(value, response.jsonPath().getString("csrfToken"), setCookie);
    }

    @Test
    void aWrongTokenIs401AndSetsNoCookie() {
        Response response = RestAssured.given().contentType(ContentType.JSON)
                .body(new JsonObject().put("token", "not-the-token").encode()).post(SESSION);

        assertProblem(response, 401, "unauthorized").body("detail", containsString("not valid"));
        assertNull(response.getHeader("Set-Cookie"));
    }

    @Test
    void aMissingTokenIs401AndSetsNoCookie() {
        Response response = RestAssured.given().contentType(ContentType.JSON).body("{}").post(SESSION);

        assertProblem(response, 401, "unauthorized");
        assertNull(response.getHeader("Set-Cookie"));
    }

    @Test
    void theRightTokenSetsAnHttpOnlyStrictCookieForTheLifetime() {
        Instant before = Instant.now();
        Response response = RestAssured.given().contentType(ContentType.JSON)
                .body(new JsonObject().put("token", Api.TOKEN).encode()).post(SESSION);

        response.then().statusCode(200).header("Cache-Control", "no-store");
        String setCookie = response.getHeader("Set-Cookie");
        assertTrue(setCookie.matches("portico_session=[A-Za-z0-9_-]{40,}; Path=/; HttpOnly; SameSite=Strict; "
                + "Max-Age=28800"), setCookie);
        assertFalse(setCookie.contains("Secure"), "plain HTTP: no Secure attribute, or the browser drops it");
        Instant expiresAt = Instant.parse(response.jsonPath().getString("expiresAt"));
        assertTrue(Duration.between(before, expiresAt).minus(Duration.ofHours(8)).abs().getSeconds() <= 2,
                "expires 8 h from now: " + expiresAt);
        assertTrue(response.jsonPath().getString("csrfToken").length() >= 40);
    }

    @Test
    void overTlsTheCookieIsSecure() {
        Instant now = Instant.now();
        DashboardSession session = cookies.issue(now);

        assertTrue(cookies.setCookie(session, true, now).endsWith("; Max-Age=28800; Secure"));
        assertTrue(cookies.clearCookie(true).endsWith("; Max-Age=0; Secure"));
        assertFalse(cookies.setCookie(session, false, now).contains("Secure"));
    }

    @Test
    void theCookieAuthenticatesApiCallsAndTheSessionAnswersItsCsrfTokenAgain() {
        Signed signed = signIn();

        signed.given().get(VHOSTS).then().statusCode(200);
        signed.given().get("/api/v1/status").then().statusCode(200);
        signed.given().get(SESSION).then().statusCode(200).header("Cache-Control", "no-store")
                .body("csrfToken", equalTo(signed.csrf()));
    }

    @Test
    void theSessionEndpointWithoutACookieIs401() {
        assertProblem(RestAssured.given().get(SESSION), 401, "unauthorized");
        assertProblem(Api.given().get(SESSION), 401, "unauthorized");
    }

    @Test
    void stateChangingCallsWithTheCookieNeedTheCsrfHeader() {
        Signed signed = signIn();
        String body = Api.vhost("csrf", "csrf.test", "http://127.0.0.1:9").encode();

        assertProblem(signed.given().body(body).post(VHOSTS), 403, "csrf").body("title", containsString("CSRF"));
        assertProblem(signed.given().header(CSRF, "forged").body(body).post(VHOSTS), 403, "csrf");
        String id = signed.given().header(CSRF, signed.csrf()).body(body).post(VHOSTS).then().statusCode(201)
                .extract().path("id");
        String etag = signed.given().get(VHOSTS + "/" + id).getHeader("ETag");
        String changed = Api.vhost("csrf", "csrf2.test", "http://127.0.0.1:9").encode();

        assertProblem(signed.given().header("If-Match", etag).body(changed).put(VHOSTS + "/" + id), 403, "csrf");
        signed.given().header(CSRF, signed.csrf()).header("If-Match", etag).body(changed).put(VHOSTS + "/" + id)
                .then().statusCode(200);
        assertProblem(signed.given().delete(VHOSTS + "/" + id), 403, "csrf");
        signed.given().header(CSRF, signed.csrf()).delete(VHOSTS + "/" + id).then().statusCode(204);
    }

    @Test
    void anotherSessionsCsrfTokenIsRefused() {
        Signed mine = signIn();
        Signed other = signIn();

        assertProblem(mine.given().header(CSRF, other.csrf()).delete(VHOSTS + "/" + UUID.randomUUID()),
                403, "csrf");
    }

    @Test
    void aForeignOriginIsRefusedEvenWithTheCsrfToken() {
        Signed signed = signIn();
        String own = "http://" + api.getHost() + ":" + api.getPort();

        assertProblem(signed.given().header("Origin", "http://evil.example").get(VHOSTS), 403, "csrf")
                .body("detail", containsString("another origin"));
        // Same host, another port: "same-site" to a browser (the data plane's port), but not this origin.
        assertProblem(signed.given().header("Origin", "http://" + api.getHost() + ":8080").header(CSRF, signed.csrf())
                .body(Api.vhost("o", "o.test", "http://127.0.0.1:9").encode()).post(VHOSTS), 403, "csrf");
        assertProblem(signed.given().header("Origin", "null").get(VHOSTS), 403, "csrf");
        signed.given().header("Origin", own).get(VHOSTS).then().statusCode(200);
        assertProblem(RestAssured.given().header("Origin", "http://evil.example").contentType(ContentType.JSON)
                .body(new JsonObject().put("token", Api.TOKEN).encode()).post(SESSION), 403, "csrf");
    }

    @Test
    void theBearerTokenNeedsNoCsrfHeader() {
        String id = Api.create(Api.vhost("bearer", "bearer.test", "http://127.0.0.1:9"));

        Api.given().delete(VHOSTS + "/" + id).then().statusCode(204);
    }

    @Test
    void signingOutClearsTheCookieAndRevokesTheSession() {
        Signed signed = signIn();

        assertProblem(signed.given().delete(SESSION), 403, "csrf");
        signed.given().get(VHOSTS).then().statusCode(200);
        Response out = signed.given().header(CSRF, signed.csrf()).delete(SESSION);

        out.then().statusCode(204).header("Cache-Control", "no-store");
        assertTrue(out.getHeader("Set-Cookie").matches("portico_session=; Path=/; HttpOnly; SameSite=Strict; "
                + "Max-Age=0"), out.getHeader("Set-Cookie"));
        assertProblem(signed.given().get(VHOSTS), 401, "unauthorized").body("detail", containsString("signed out"));
        assertProblem(signed.given().get(SESSION), 401, "unauthorized");
    }

    @Test
    void aTamperedCookieIs401AndIsCleared() {
        Signed signed = signIn();
        char[] chars = signed.cookie().toCharArray();
        int middle = chars.length / 2;
        chars[middle] = chars[middle] == 'A' ? 'B' : 'A';
        String tampered = new String(chars);

        Response response = RestAssured.given().cookie(SessionCookies.NAME, tampered).get(VHOSTS);

        assertProblem(response, 401, "unauthorized");
        assertTrue(response.getHeader("Set-Cookie").contains("Max-Age=0"));
        assertProblem(RestAssured.given().cookie(SessionCookies.NAME, "garbage!").get(VHOSTS), 401, "unauthorized");
    }

    @Test
    void anExpiredCookieIs401() {
        DashboardSession old = cookies.issue(Instant.now().minus(Duration.ofHours(8)).minusSeconds(5));
        DashboardSession live = cookies.issue(Instant.now().minus(Duration.ofHours(7)));

        assertProblem(RestAssured.given().cookie(SessionCookies.NAME, cookies.value(old)).get(VHOSTS), 401,
                "unauthorized");
        RestAssured.given().cookie(SessionCookies.NAME, cookies.value(live)).get(VHOSTS).then().statusCode(200);
    }

    @Test
    void theStatsStreamWorksWithTheCookie() throws Exception {
        Signed signed = signIn();
        HttpClient client = TestVertx.get().createHttpClient();
        try {
            BlockingQueue<Event> events = SseEvents.open(client, api, "/api/v1/stats/stream",
                    Map.of("Cookie", SessionCookies.NAME + "=" + signed.cookie()));
            Event first = events.poll(5, TimeUnit.SECONDS);
            assertNotNull(first, "an event within 5 s");
            assertEquals("stats", first.name());
        } finally {
            client.close();
        }
    }

    @Test
    void aSignInBodyLargerThanATokenNeedsIsRefusedUnread() {
        String huge = new JsonObject().put("token", "x".repeat(10_000)).encode();

        assertProblem(RestAssured.given().contentType(ContentType.JSON).body(huge).post(SESSION), 413,
                "body-too-large");
    }
}
