package dev.portico.control.secrets;

import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.TestPki;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The secret key against the database it starts on, as a restart or another replica meets it: the key the stored
 * keys were sealed with is used; another key is refused at start while sealed rows exist; no key leaves TLS for
 * stored certificates off with the reason, instead of failing the start.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class SecretKeySourceTest {

    /** The test profile's key, the one this application started with. */
    private static final String STARTED_WITH = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

    @Inject
    EntityManager entityManager;

    @AfterEach
    void clean() {
        List<String> ids = Api.given().get("/api/v1/certificates").then().extract().path("id");
        ids.forEach(id -> Api.given().delete("/api/v1/certificates/" + id).then().statusCode(204));
    }

    /** A source as another instance starting on this database would build it. */
    private SecretKeySource startingWith(String key) {
        SecretKeySource source = new SecretKeySource(() -> Optional.ofNullable(key), entityManager);
        source.init(null);
        return source;
    }

    private static void storeACertificate() {
        TestPki.Issued leaf = TestPki.leaf(TestPki.ca("Key Root"), TestPki.Kind.EC_P256, "key.test");
        Api.given().body(new JsonObject().put("certificate", leaf.certificatePem()).put("privateKey", leaf.pkcs8Pem())
                .encode()).post("/api/v1/certificates").then().statusCode(201);
    }

    @Test
    void theSameKeyIsUsedAndAnotherIsRefusedWhileKeysAreSealedWithTheFirst() {
        storeACertificate();

        assertEquals(SecretBox.parse(STARTED_WITH).keyId(), startingWith(STARTED_WITH).require().keyId());
        String other = Base64.getEncoder().encodeToString(SecretBox.generateKey());
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> startingWith(other));
        assertTrue(refused.getMessage().contains(SecretBox.parse(STARTED_WITH).keyId())
                && refused.getMessage().contains(SecretBox.parse(other).keyId()), refused.getMessage());
        assertThrows(ConfigurationException.class, () -> startingWith("not a key"));
    }

    @Test
    void withoutAKeyStoredCertificatesAreOffAndTheReasonIsGiven() {
        storeACertificate();

        SecretKeySource none = startingWith(null);

        assertTrue(none.box().isEmpty());
        assertTrue(none.unavailableReason().contains("PORTICO_SECRET_KEY is not set"), none.unavailableReason());
        assertThrows(SecretUnreadableException.class, none::require);
    }

    @Test
    void withNothingSealedYetANewKeyReplacesTheStoredId() {
        // The test database is shared by every test class of the run: earlier ones may have left sealed rows.
        io.quarkus.narayana.jta.QuarkusTransaction.requiringNew().run(() -> {
            for (String table : SecretKeySource.SEALED_TABLES) {
                if (table.equals("certificate")) {
                    entityManager.createNativeQuery("update acme_certificate_state set certificate_id = null")
                            .executeUpdate();
                }
                entityManager.createNativeQuery("delete from " + table).executeUpdate();
            }
        });
        String other = Base64.getEncoder().encodeToString(SecretBox.generateKey());
        try {
            SecretKeySource replaced = startingWith(other);
            assertNull(replaced.unavailableReason());
            assertEquals(SecretBox.parse(other).keyId(), replaced.require().keyId());
            SecretKeySource generated = startingWith(null);
            assertNull(generated.unavailableReason(), "a key is generated when nothing is sealed");
            assertTrue(generated.box().isPresent());
        } finally {
            startingWith(STARTED_WITH); // the id of the key the running application seals with, for the other tests
        }
    }
}
