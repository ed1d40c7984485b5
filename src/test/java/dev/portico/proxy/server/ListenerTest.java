package dev.portico.proxy.server;

import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.tls.CipherProfile;
import dev.portico.proxy.server.tls.TlsEngine;
import dev.portico.proxy.server.tls.TlsTermination;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The listener seam admits what the data plane can serve today (HTTP/1.1, cleartext or over TLS) and refuses the rest
 * by name, so a listener meant to speak another protocol never comes up as HTTP/1.1.
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
    void anHttp11ListenerOverTlsKeepsHowItTerminatesTls() {
        TlsTermination tls = new TlsTermination(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        Listener listener = Listener.http1Tls("https", "0.0.0.0", 8443, tls);

        assertEquals(Set.of(ListenerProtocol.HTTP_1_1), listener.protocols());
        assertSame(tls, listener.tls());
    }

    @Test
    void aListenerOverTlsSpeakingNoProtocolIsRefusedNamingTls() {
        TlsTermination tls = new TlsTermination(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Listener("https", "0.0.0.0", 8443, Set.of(), tls));

        assertTrue(refused.getMessage().contains("https") && refused.getMessage().contains("TLS"),
                refused.getMessage());
    }

    @Test
    void anEngineChoiceLeftToStartUpIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TlsTermination(TlsTable.EMPTY, TlsEngine.AUTO,
                CipherProfile.INTERMEDIATE, Duration.ofSeconds(10)));
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
