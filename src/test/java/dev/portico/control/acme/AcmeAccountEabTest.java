package dev.portico.control.acme;

import dev.portico.testing.Pebble;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.shredzone.acme4j.Login;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ACME account against a Pebble that requires External Account Binding, and its sealed storage. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AcmeAccountEabTest {

    @Inject
    AcmeAccounts accounts;

    @Inject
    DataSource dataSource;

    private Pebble pebble;

    @BeforeAll
    void startPebble() throws Exception {
        pebble = Pebble.start(Pebble.freePort(), Pebble.freePort(), Pebble.EAB_KEYS);
    }

    @AfterAll
    void stopPebble() {
        if (pebble != null) {
            pebble.close();
        }
    }

    @BeforeEach
    void forgetTheAccount() throws java.sql.SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement delete = connection.prepareStatement("delete from acme_account where directory_url = ?")) {
            delete.setString(1, pebble.directoryUrl());
            delete.executeUpdate();
        }
    }

    @Test
    void withoutABindingTheCaRefusesTheAccountInItsOwnWords() {
        AcmeFailure failure = assertThrows(AcmeFailure.class, () -> accounts.login(directory(Optional.empty())));

        assertEquals(Optional.of("urn:ietf:params:acme:error:externalAccountRequired"), failure.problemType(),
                failure.getMessage());
        assertEquals("account", failure.step());
        assertEquals(Optional.empty(), storedAccount(pebble.directoryUrl()), "nothing stored for a refused account");
    }

    @Test
    void withTheBindingTheAccountIsCreatedStoredSealedAndReused() throws Exception {
        Map.Entry<String, String> eab = Pebble.EAB_KEYS.entrySet().iterator().next();
        AcmeDirectory directory = directory(Optional.of(
                new AcmeDirectory.ExternalAccountBinding(eab.getKey(), eab.getValue())));

        Login created = accounts.login(directory);
        Login again = accounts.login(directory);

        assertEquals(created.getAccountLocation(), again.getAccountLocation(), "the stored account is reused");
        assertEquals(created.getKeyPair().getPublic(), again.getKeyPair().getPublic());
        again.getAccount().fetch(); // the stored key still authenticates with the CA
        byte[] sealed = storedAccount(directory.url()).orElseThrow();
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("PRIVATE KEY"), "the key is sealed");
        assertTrue(sealed.length > 100);
    }

    private AcmeDirectory directory(Optional<AcmeDirectory.ExternalAccountBinding> binding) {
        return new AcmeDirectory(pebble.directoryUrl(), Optional.of(AcmeDirectory.trusting(pebble.caBundle())),
                Optional.of("ops@acme.test"), binding);
    }

    private Optional<byte[]> storedAccount(String directoryUrl) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "select key_ciphertext from acme_account where directory_url = ?")) {
            select.setString(1, directoryUrl);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getBytes(1)) : Optional.empty();
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
