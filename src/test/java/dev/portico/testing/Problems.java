package dev.portico.testing;

import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;

import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/** Assertions on the management API's RFC 9457 problem documents. */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final String VHOSTS = "/api/v1/vhosts";

    private Problems() {
    }

    /**
     * Asserts status, media type and the RFC 9457 members every problem must carry.
     *
     * @param type the code after {@code urn:portico:problem:}
     */
    public static ValidatableResponse assertProblem(Response response, int status, String type) {
        return response.then()
                .statusCode(status)
                .header("Content-Type", startsWith(MEDIA_TYPE))
                .body("type", equalTo("urn:portico:problem:" + type))
                .body("title", not(emptyOrNullString()))
                .body("status", equalTo(status))
                .body("detail", not(emptyOrNullString()));
    }

    /** Asserts a 400 validation problem whose errors[] name at least {@code fields}, each with a reason. */
    public static ValidatableResponse assertInvalid(Response response, String... fields) {
        return assertProblem(response, 400, "validation")
                .body("errors.field", hasItems(fields))
                .body("errors.reason", everyItem(not(emptyOrNullString())));
    }

    /** The errors[] entries of a problem as {field, reason} maps. */
    public static List<Map<String, String>> errors(Response response) {
        return response.jsonPath().getList("errors");
    }

    /** Asserts that no vhost is stored. */
    public static void assertNoVhosts() {
        Api.given().get(VHOSTS).then().statusCode(200).body("size()", is(0));
    }
}
