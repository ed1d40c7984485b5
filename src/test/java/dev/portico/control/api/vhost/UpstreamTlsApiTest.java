package dev.portico.control.api.vhost;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.OpensslPki;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.portico.testing.Problems.VHOSTS;
import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertNoVhosts;
import static dev.portico.testing.Problems.errors;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An upstream's {@code tls} object through the API: stored normalised and shown back, and every bad setting refused
 * with a problem naming it ({@code upstreams[i].tls.caBundle}, ...), nothing stored.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class UpstreamTlsApiTest {

    private static final String CA = OpensslPki.authority("API test CA").caPem();
    private static final String OTHER_CA = OpensslPki.authority("API test CA 2").caPem();

    @AfterEach
    void removeAllVhosts() {
        Api.deleteAll();
    }

    private static JsonObject vhost(String url, JsonObject tls) {
        JsonObject upstream = new JsonObject().put("url", url);
        if (tls != null) {
            upstream.put("tls", tls);
        }
        return new JsonObject().put("name", "secure").put("hostnames", new JsonArray().add("secure.test"))
                .put("upstreams", new JsonArray().add(upstream));
    }

    private static Response post(JsonObject body) {
        return Api.given().body(body.encode()).post(VHOSTS);
    }

    @Test
    void tlsSettingsAreStoredNormalisedAndShownBack() {
        String id = Api.create(vhost("https://10.0.0.5:8443", new JsonObject()
                .put("caBundle", CA + OTHER_CA).put("serverName", "API.Internal.Example.")));

        Api.given().get(VHOSTS + "/" + id).then().statusCode(200)
                .body("upstreams[0].tls.caBundle", equalTo(CA + OTHER_CA))
                .body("upstreams[0].tls.verify", equalTo(true))
                .body("upstreams[0].tls.serverName", equalTo("api.internal.example"));
    }

    @Test
    void verifyFalseIsKeptAsAnExplicitChoice() {
        String id = Api.create(vhost("https://10.0.0.5", new JsonObject().put("verify", false)));

        Api.given().get(VHOSTS + "/" + id).then().statusCode(200)
                .body("upstreams[0].tls.verify", equalTo(false))
                .body("upstreams[0].tls.caBundle", nullValue());
    }

    @Test
    void anHttpsUpstreamWithoutTlsShowsNone() {
        String id = Api.create(vhost("https://10.0.0.5", null));

        Api.given().get(VHOSTS + "/" + id).then().statusCode(200).body("upstreams[0].tls", nullValue());
    }

    static Stream<Arguments> invalidTls() {
        String key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n";
        return Stream.of(
                invalid("caBundle on http://", "http://10.0.0.5", tls("caBundle", CA), "upstreams[0].tls.caBundle"),
                invalid("verify on http://", "http://10.0.0.5", tls("verify", true), "upstreams[0].tls.verify"),
                invalid("serverName on http://", "http://10.0.0.5", tls("serverName", "a.test"),
                        "upstreams[0].tls.serverName"),
                invalid("empty tls on http://", "http://10.0.0.5", new JsonObject(), "upstreams[0].tls"),
                invalid("caBundle that is not PEM", "https://10.0.0.5", tls("caBundle", "not a certificate"),
                        "upstreams[0].tls.caBundle"),
                invalid("blank caBundle", "https://10.0.0.5", tls("caBundle", " "), "upstreams[0].tls.caBundle"),
                invalid("caBundle block that is not a certificate", "https://10.0.0.5",
                        tls("caBundle", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
                        "upstreams[0].tls.caBundle"),
                invalid("caBundle with a private key", "https://10.0.0.5", tls("caBundle", CA + key),
                        "upstreams[0].tls.caBundle"),
                invalid("caBundle cut short", "https://10.0.0.5",
                        tls("caBundle", CA + CA.substring(0, CA.length() / 2)), "upstreams[0].tls.caBundle"),
                invalid("caBundle with verify false", "https://10.0.0.5",
                        tls("caBundle", CA).put("verify", false), "upstreams[0].tls.caBundle"),
                invalid("serverName with a space", "https://10.0.0.5", tls("serverName", "a b.test"),
                        "upstreams[0].tls.serverName"),
                invalid("wildcard serverName", "https://10.0.0.5", tls("serverName", "*.a.test"),
                        "upstreams[0].tls.serverName"),
                invalid("IPv4 serverName", "https://10.0.0.5", tls("serverName", "10.0.0.5"),
                        "upstreams[0].tls.serverName"),
                invalid("IPv6 serverName", "https://10.0.0.5", tls("serverName", "[::1]"),
                        "upstreams[0].tls.serverName"),
                invalid("empty serverName", "https://10.0.0.5", tls("serverName", ""), "upstreams[0].tls.serverName"),
                invalid("verify of the wrong type", "https://10.0.0.5", tls("verify", "no"),
                        "upstreams[0].tls.verify"),
                invalid("a client certificate that is no id", "https://10.0.0.5", tls("clientCertificate", "abc"),
                        "upstreams[0].tls.clientCertificate"));
    }

    private static JsonObject tls(String field, Object value) {
        return new JsonObject().put(field, value);
    }

    private static Arguments invalid(String label, String url, JsonObject tls, String field) {
        return Arguments.of(label, url, tls, field);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidTls")
    void invalidTlsSettingsAreRefusedNamingTheField(String label, String url, JsonObject tls, String field) {
        Response refused = post(vhost(url, tls));

        assertInvalid(refused, field);
        assertNoVhosts();
    }

    @Test
    void everyBadTlsFieldOfEveryUpstreamIsNamedAtOnce() {
        JsonObject body = vhost("https://10.0.0.5", tls("caBundle", "garbage").put("serverName", "not valid"));
        body.getJsonArray("upstreams").add(new JsonObject().put("url", "http://10.0.0.6")
                .put("tls", tls("verify", false)));

        Response refused = post(body);

        assertInvalid(refused, "upstreams[0].tls.caBundle", "upstreams[0].tls.serverName",
                "upstreams[1].tls.verify");
        List<Map<String, String>> errors = errors(refused);
        assertEquals(3, errors.size(), errors.toString());
        assertTrue(errors.stream().allMatch(e -> !e.get("reason").isBlank()), errors.toString());
    }
}
