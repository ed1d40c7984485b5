package dev.portico.testing;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * The cleartext listener with {@code portico.dataplane.h2c=true}, and a one-second head timeout so the silent-client
 * tests wait seconds. Shared by every class that needs a prior-knowledge HTTP/2 client: one profile, one restart.
 */
public final class H2cProfile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("portico.dataplane.h2c", "true", "portico.dataplane.client-header-timeout", "1s");
    }
}
