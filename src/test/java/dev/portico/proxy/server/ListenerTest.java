package dev.portico.proxy.server;

import dev.portico.proxy.core.DataPlaneSettings;
import dev.portico.proxy.route.TlsTable;
import dev.portico.proxy.server.tls.CipherProfile;
import dev.portico.proxy.server.tls.TlsEngine;
import dev.portico.proxy.server.tls.TlsTermination;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The listener seam admits what the data plane can serve (HTTP/1.1, cleartext or over TLS, with HTTP/2 beside it) and
 * refuses the rest by name, so a listener meant to speak another protocol never comes up as HTTP/1.1.
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
        TlsTermination tls = TlsTermination.fixed(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        Listener listener = Listener.http1Tls("https", "0.0.0.0", 8443, tls);

        assertEquals(Set.of(ListenerProtocol.HTTP_1_1), listener.protocols());
        assertSame(tls, listener.tls());
    }

    @Test
    void aListenerOverTlsSpeakingNoProtocolIsRefusedNamingTls() {
        TlsTermination tls = TlsTermination.fixed(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Listener("https", "0.0.0.0", 8443, Set.of(), tls));

        assertTrue(refused.getMessage().contains("https") && refused.getMessage().contains("TLS"),
                refused.getMessage());
    }

    @Test
    void anEngineChoiceLeftToStartUpIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> TlsTermination.fixed(TlsTable.EMPTY, TlsEngine.AUTO,
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

    @Test
    void theDataPlaneRunsNoTlsListenerWhenTheTlsPortIsOff() {
        List<Listener> listeners = Listener.of(dataPlaneSettings(Map.of("portico.dataplane.tls-port", "-1")), () -> {
            throw new AssertionError("the TLS engine is not resolved without a TLS listener");
        });

        assertEquals(List.of("http"), listeners.stream().map(Listener::name).toList());
        assertNull(listeners.get(0).tls());
    }

    @Test
    void byDefaultHttpsListensOn8443BesideHttpOn8080() {
        TlsTermination tls = TlsTermination.fixed(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        List<Listener> listeners = Listener.of(dataPlaneSettings(Map.of()), () -> tls);

        assertEquals(List.of(8080, 8443), listeners.stream().map(Listener::port).toList());
    }

    @Test
    void aTlsPortAddsAnHttpsListenerBesideTheCleartextOne() {
        TlsTermination tls = TlsTermination.fixed(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        List<Listener> listeners = Listener.of(dataPlaneSettings(Map.of("portico.dataplane.port", "8080",
                "portico.dataplane.tls-port", "8443", "portico.dataplane.host", "127.0.0.1")), () -> tls);

        assertEquals(2, listeners.size());
        assertEquals(8080, listeners.get(0).port());
        assertNull(listeners.get(0).tls(), "the cleartext listener stays as it is");
        assertEquals("https", listeners.get(1).name());
        assertEquals("127.0.0.1", listeners.get(1).host());
        assertEquals(8443, listeners.get(1).port());
        assertSame(tls, listeners.get(1).tls());
    }

    @Test
    void theTlsListenerSpeaksHttp2BesideHttp11AndTheCleartextOneHttp11Only() {
        TlsTermination tls = TlsTermination.fixed(TlsTable.EMPTY, TlsEngine.JDK, CipherProfile.INTERMEDIATE,
                Duration.ofSeconds(10));

        List<Listener> listeners = Listener.of(dataPlaneSettings(Map.of()), () -> tls);

        assertEquals(Set.of(ListenerProtocol.HTTP_1_1), listeners.get(0).protocols());
        assertEquals(Set.of(ListenerProtocol.HTTP_1_1, ListenerProtocol.HTTP_2), listeners.get(1).protocols());
    }

    @Test
    void aListenerSpeakingHttp2AloneIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new Listener("h2-only", "0.0.0.0", 8080, Set.of(ListenerProtocol.HTTP_2), null));

        assertTrue(refused.getMessage().contains("h2-only"), refused.getMessage());
    }

    @Test
    void http2LimitsHaveSafeDefaults() {
        DataPlaneSettings.Http2 http2 = dataPlaneSettings(Map.of()).http2();

        assertEquals(128, http2.maxConcurrentStreams());
        assertEquals(65535, http2.initialWindowSize());
        assertEquals(200, http2.maxResetsPerWindow());
        assertEquals(Duration.ofSeconds(30), http2.resetWindow());
        assertEquals(16, http2.maxSmallContinuationFrames());
    }

    /** The settings as the configuration library maps them from {@code properties} and the defaults. */
    private static DataPlaneSettings dataPlaneSettings(Map<String, String> properties) {
        // Quarkus' own spellings of durations (75s) and sizes (1G), as the running application reads them.
        return new SmallRyeConfigBuilder().withMapping(DataPlaneSettings.class)
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withSources(new PropertiesConfigSource(properties, "test", 500)).build()
                .getConfigMapping(DataPlaneSettings.class);
    }
}
