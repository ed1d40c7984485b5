package dev.portico.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Files;
import java.util.Map;

/**
 * A Pebble for a test class whose Portico is the ACME client and the challenge responder: Pebble validates HTTP-01
 * on the data plane's cleartext port, so both ports are chosen here, before Portico starts, and given to it with
 * Pebble's directory and CA bundle. Without Pebble installed (outside CI) Portico starts with ACME off and the test
 * skips itself ({@link Pebble#assumeInstalled()}).
 */
public class PebbleResource implements QuarkusTestResourceLifecycleManager {

    private static Pebble pebble;

    /** The running Pebble, or null when it is not installed. */
    public static Pebble pebble() {
        return pebble;
    }

    @Override
    public Map<String, String> start() {
        if (!Files.isExecutable(Pebble.PEBBLE) || !Files.isExecutable(Pebble.CHALLTESTSRV)) {
            return Map.of("portico.acme.enabled", "false");
        }
        try {
            int httpPort = Pebble.freePort();
            int tlsPort = Pebble.freePort();
            pebble = Pebble.start(httpPort, tlsPort, Map.of());
            return Map.of("portico.dataplane.port", Integer.toString(httpPort),
                    "portico.dataplane.tls-port", Integer.toString(tlsPort),
                    "portico.acme.directory-url", pebble.directoryUrl(),
                    "portico.acme.ca-bundle", pebble.caBundle().toString());
        } catch (Exception e) {
            throw new IllegalStateException("Pebble did not start", e);
        }
    }

    @Override
    public void stop() {
        if (pebble != null) {
            pebble.close();
            pebble = null;
        }
    }
}
