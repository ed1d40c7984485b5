package dev.portico.proxy.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The listener seam admits what the data plane can serve today (cleartext HTTP/1.1) and refuses the rest by name,
 * so a listener meant to be encrypted or to speak another protocol never comes up as cleartext HTTP/1.1.
 */
class ListenerTest {

    @Test
    void aCleartextHttp11ListenerKeepsItsAddress() {
        Listener listener = Listener.http1Cleartext("http", "127.0.0.1", 0);

        assertEquals("127.0.0.1", listener.host());
        assertEquals(0, listener.port(), "port 0 stays 0: the data plane picks one free port shared by every loop");
        assertEquals(Set.of(ListenerProtocol.HTTP_1_1), listener.protocols());
        assertNull(listener.tls());
    }

    @Test
    void aListenerWithTlsSettingsIsRefusedRatherThanServedInCleartext() {
        TlsSettings tls = new TlsSettings(Path.of("chain.pem"), Path.of("key.pem"));

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Listener("https", "0.0.0.0", 8443, Set.of(ListenerProtocol.HTTP_1_1), tls));

        assertTrue(refused.getMessage().contains("https") && refused.getMessage().contains("TLS"),
                refused.getMessage());
    }

    @Test
    void aListenerSpeakingNoProtocolIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Listener("mute", "0.0.0.0", 8080, Set.of(), null));

        assertTrue(refused.getMessage().contains("mute"), refused.getMessage());
    }

    @Test
    void aPortOutsideTcpsRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Listener.http1Cleartext("http", "0.0.0.0", 65536));
        assertThrows(IllegalArgumentException.class, () -> Listener.http1Cleartext("http", "0.0.0.0", -1));
    }
}
