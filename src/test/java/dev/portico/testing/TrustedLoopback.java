package dev.portico.testing;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * A test profile whose data plane trusts 127.0.0.3 as a proxy: a client bound to 127.0.0.3 speaks for the client its
 * {@code X-Forwarded-For} names, while 127.0.0.1 and 127.0.0.2 are clients themselves. One class for every test of
 * client-address policies, so they share one application start.
 */
public final class TrustedLoopback implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("portico.dataplane.trusted-proxies", "127.0.0.3");
    }
}
