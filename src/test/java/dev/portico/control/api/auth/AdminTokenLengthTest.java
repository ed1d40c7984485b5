package dev.portico.control.api.auth;

import io.quarkus.runtime.configuration.ConfigurationException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A configured admin token shorter than 16 characters stops the start with a message saying why; the process test
 * ({@code PorticoProcessIT}) shows the packaged application refusing one.
 */
class AdminTokenLengthTest {

    @Test
    void aTokenOfFifteenCharactersIsRefusedWithTheReason() {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> AdminToken.checkedLength("fifteen-chars-x"));

        assertTrue(refused.getMessage().startsWith("PORTICO_ADMIN_TOKEN (portico.admin.token) is 15 characters long; "
                + "it must have at least 16"), refused.getMessage());
        assertTrue(refused.getMessage().contains("openssl rand -hex 16"), refused.getMessage());
    }

    @Test
    void spacesAroundTheTokenDoNotCount() {
        assertThrows(ConfigurationException.class, () -> AdminToken.checkedLength("  fifteen-chars-x  "));
    }

    @Test
    void aTokenOfSixteenCharactersIsTakenWithoutTheSpacesAroundIt() {
        assertEquals("test-admin-token", AdminToken.checkedLength(" test-admin-token\t"));
    }
}
