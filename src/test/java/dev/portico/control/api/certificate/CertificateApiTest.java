package dev.portico.control.api.certificate;

import dev.portico.control.secrets.SecretBox;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.TestPki;
import dev.portico.testing.TestPki.Issued;
import dev.portico.testing.TestPki.Kind;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import static dev.portico.testing.Problems.assertInvalid;
import static dev.portico.testing.Problems.assertProblem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * {@code /api/v1/certificates}: what an upload must be, what is shown (never the key), how the key is stored, and how
 * vhosts name certificates.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class CertificateApiTest {

    static final String CERTIFICATES = "/api/v1/certificates";
    /** The test profile's PORTICO_SECRET_KEY (application.properties). */
    static final String TEST_KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    private static final Issued ROOT = TestPki.ca("Test Root");
    private static final Issued INTERMEDIATE = TestPki.intermediate("Test Intermediate", ROOT);

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void clean() {
        Api.deleteAll();
        List<String> ids = Api.given().get(CERTIFICATES).then().statusCode(200).extract().path("id");
        for (String id : ids) {
            Api.given().delete(CERTIFICATES + "/" + id).then().statusCode(204);
        }
    }

    static Response upload(String certificate, String privateKey) {
        return Api.given().body(new JsonObject().put("certificate", certificate).put("privateKey", privateKey).encode())
                .post(CERTIFICATES);
    }

    @Test
    void rsaAndEcdsaChainsAreStoredAndListedWithoutTheirKeys() {
        Issued rsa = TestPki.leaf(INTERMEDIATE, Kind.RSA_2048, "shop.test", "www.shop.test");
        Response created = upload(TestPki.pem(rsa.certificate(), INTERMEDIATE.certificate()), rsa.traditionalPem());
        created.then().statusCode(201)
                .header("Location", containsString(CERTIFICATES + "/"))
                .body("names", equalTo(List.of("shop.test", "www.shop.test")))
                .body("keyType", equalTo("RSA-2048"))
                .body("subject", equalTo("CN=shop.test"))
                .body("issuer", equalTo("CN=Test Intermediate"))
                .body("source", equalTo("uploaded"))
                .body("expiresInDays", is(89))
                .body("sha256Fingerprint", equalTo(fingerprint(rsa)))
                .body("usedBy.size()", is(0));
        String rsaId = created.path("id");

        Issued ecdsa = TestPki.leaf(ROOT, Kind.EC_P256, "*.api.test");
        String ecdsaId = upload(ecdsa.certificatePem(), ecdsa.traditionalPem()).then().statusCode(201)
                .body("keyType", equalTo("EC-P256")).body("names", equalTo(List.of("*.api.test")))
                .extract().path("id");
        Issued pkcs8 = TestPki.leaf(ROOT, Kind.EC_P256, "pkcs8.test");
        upload(pkcs8.certificatePem(), pkcs8.pkcs8Pem()).then().statusCode(201);

        String list = Api.given().get(CERTIFICATES).then().statusCode(200).body("id", hasItem(rsaId))
                .body("id", hasItem(ecdsaId)).extract().asString();
        String one = Api.given().get(CERTIFICATES + "/" + rsaId).then().statusCode(200)
                .body("names", equalTo(List.of("shop.test", "www.shop.test"))).extract().asString();
        for (String body : List.of(list, one, created.asString())) {
            assertFalse(body.contains("PRIVATE KEY"), body);
            assertFalse(body.contains(Base64.getEncoder().encodeToString(rsa.keys().getPrivate().getEncoded())
                    .substring(40, 100)), body);
        }
        Api.given().get(CERTIFICATES + "/" + UUID.randomUUID()).then().statusCode(404);
    }

    @Test
    void theKeyIsEncryptedInTheDatabaseAndBoundToItsRow() throws Exception {
        Issued leaf = TestPki.leaf(ROOT, Kind.RSA_2048, "sealed.test");
        String id = upload(leaf.certificatePem(), leaf.pkcs8Pem()).then().statusCode(201).extract().path("id");
        byte[] stored;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select key_ciphertext from certificate where id = ?")) {
            select.setObject(1, UUID.fromString(id));
            try (ResultSet row = select.executeQuery()) {
                row.next();
                stored = row.getBytes(1);
            }
        }
        byte[] der = leaf.keys().getPrivate().getEncoded();
        String raw = new String(stored, StandardCharsets.ISO_8859_1);
        assertFalse(raw.contains(new String(der, 20, 40, StandardCharsets.ISO_8859_1)), "the key's DER is stored");
        assertFalse(raw.contains("PRIVATE KEY"));
        assertFalse(raw.contains(Base64.getEncoder().encodeToString(der).substring(40, 80)));
        SecretBox box = SecretBox.parse(TEST_KEY);
        assertArrayEquals(der, box.open(stored, "portico:certificate:" + id));
        assertEquals(box.keyId(), HexFormat.of().formatHex(stored, 1, 9));
    }

    @Test
    void everyProblemOfAnUploadIsNamedByItsField() {
        Issued leaf = TestPki.leaf(INTERMEDIATE, Kind.RSA_2048, "bad.test");
        Issued other = TestPki.leaf(INTERMEDIATE, Kind.RSA_2048, "other.test");
        assertInvalid(upload(leaf.certificatePem(), other.pkcs8Pem()), "privateKey")
                .body("errors[0].reason", containsString("does not belong to the leaf"));
        assertInvalid(upload(TestPki.pem(INTERMEDIATE.certificate(), leaf.certificate()), leaf.pkcs8Pem()),
                "certificate").body("errors.reason", hasItem(containsString("not in order")));
        Issued expired = TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().minus(Duration.ofDays(30)),
                Instant.now().minus(Duration.ofDays(1)), "old.test");
        assertInvalid(upload(expired.certificatePem(), expired.pkcs8Pem()), "certificate")
                .body("errors[0].reason", startsWith("expired on"));
        Issued early = TestPki.leaf(ROOT, TestPki.keys(Kind.EC_P256), Instant.now().plus(Duration.ofDays(1)),
                Instant.now().plus(Duration.ofDays(30)), "early.test");
        assertInvalid(upload(early.certificatePem(), early.pkcs8Pem()), "certificate")
                .body("errors[0].reason", startsWith("is not valid before"));
        Issued weak = TestPki.leaf(ROOT, Kind.RSA_1024, "weak.test");
        assertInvalid(upload(weak.certificatePem(), weak.pkcs8Pem()), "privateKey")
                .body("errors[0].reason", containsString("1024 bits"));
        Issued p521 = TestPki.leaf(ROOT, Kind.EC_P521, "p521.test");
        assertInvalid(upload(p521.certificatePem(), p521.pkcs8Pem()), "privateKey");
        assertInvalid(upload(leaf.pkcs8Pem(), "not pem"), "certificate", "privateKey")
                .body("errors.reason", hasItem(containsString("the key goes in privateKey")));
        assertInvalid(Api.given().body("{\"certificate\": 5}").post(CERTIFICATES), "certificate");
        assertInvalid(Api.given().body("{}").post(CERTIFICATES), "certificate", "privateKey");
        assertInvalid(upload(leaf.certificatePem(), leaf.pkcs8Pem() + leaf.pkcs8Pem()), "privateKey");
        String encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                + "MIGjMF8GCSqGSIb3DQEFDTBSMDEGCSqGSIb3DQEFDDAkBBBT5Y2r3v2XxQ==\n-----END ENCRYPTED PRIVATE KEY-----\n";
        assertInvalid(upload(leaf.certificatePem(), encrypted), "privateKey");
        Api.given().get(CERTIFICATES).then().statusCode(200).body("size()", is(0));
    }

    @Test
    void aVhostNamesACertificateCoveringItsHostsAndTheCertificateCannotBeDeletedUnderIt() {
        Issued wildcard = TestPki.leaf(ROOT, Kind.EC_P256, "*.shop.test", "shop.test");
        String id = upload(wildcard.certificatePem(), wildcard.pkcs8Pem()).then().statusCode(201).extract().path("id");
        JsonObject vhost = Api.vhost("shop", "shop.test", "http://127.0.0.1:9")
                .put("hostnames", new io.vertx.core.json.JsonArray().add("shop.test").add("eu.shop.test").add("*.shop.test"))
                .put("tls", new JsonObject().put("certificate", id).put("httpsRedirect", true)
                        .put("hsts", new JsonObject().put("includeSubDomains", true)));
        String vhostId = Api.given().body(vhost.encode()).post("/api/v1/vhosts").then().statusCode(201)
                .body("tls.certificate", equalTo(id))
                .body("tls.hsts.maxAge", is(31536000))
                .body("tls.hsts.includeSubDomains", is(true))
                .body("tls.acme", is(false))
                .extract().path("id");
        Api.given().get(CERTIFICATES + "/" + id).then().statusCode(200)
                .body("usedBy[0].name", equalTo("shop")).body("usedBy[0].id", equalTo(vhostId));

        assertProblem(Api.given().delete(CERTIFICATES + "/" + id), 409, "conflict")
                .body("detail", containsString("shop"));

        JsonObject uncovered = Api.vhost("other", "other.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("certificate", id));
        assertInvalid(Api.given().body(uncovered.encode()).post("/api/v1/vhosts"), "tls.certificate")
                .body("errors[0].reason", containsString("other.test"));
        JsonObject deep = Api.vhost("deep", "a.b.shop.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("certificate", id));
        assertInvalid(Api.given().body(deep.encode()).post("/api/v1/vhosts"), "tls.certificate");
        JsonObject unknown = Api.vhost("unknown", "unknown.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("certificate", UUID.randomUUID().toString()));
        assertInvalid(Api.given().body(unknown.encode()).post("/api/v1/vhosts"), "tls.certificate");
        JsonObject invalid = Api.vhost("invalid", "invalid.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("certificate", "nope").put("httpsRedirect", true)
                        .put("hsts", new JsonObject().put("maxAge", -1).put("preload", true)));
        assertInvalid(Api.given().body(invalid.encode()).post("/api/v1/vhosts"), "tls.certificate",
                "tls.hsts.maxAge", "tls.hsts.preload");
        JsonObject insecure = Api.vhost("insecure", "insecure.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("httpsRedirect", true));
        assertInvalid(Api.given().body(insecure.encode()).post("/api/v1/vhosts"), "tls.httpsRedirect");

        JsonObject acmeWildcard = Api.vhost("acme-wild", "*.acme.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("acme", true));
        assertInvalid(Api.given().body(acmeWildcard.encode()).post("/api/v1/vhosts"), "tls.acme")
                .body("errors[0].reason", containsString("DNS-01"));
        JsonObject acmeAndCertificate = Api.vhost("acme-both", "both.shop.test", "http://127.0.0.1:9")
                .put("tls", new JsonObject().put("acme", true).put("certificate", id));
        assertInvalid(Api.given().body(acmeAndCertificate.encode()).post("/api/v1/vhosts"), "tls.acme");

        Api.delete(vhostId);
        Api.given().delete(CERTIFICATES + "/" + id).then().statusCode(204);
        Api.given().delete(CERTIFICATES + "/" + id).then().statusCode(404);
    }

    private static String fingerprint(Issued issued) {
        try {
            return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(issued.certificate().getEncoded()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
