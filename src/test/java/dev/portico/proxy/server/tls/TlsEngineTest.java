package dev.portico.proxy.server.tls;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code portico.tls.engine=auto} runs BoringSSL where netty-tcnative's native library loads, which the build ships
 * for linux-x86_64 (a release whose classes match it: a mismatch would make it fail to load and fall back silently).
 */
class TlsEngineTest {

    @Test
    void autoRunsBoringSslOnLinuxX8664() {
        assumeTrue("amd64".equals(System.getProperty("os.arch"))
                && "Linux".equals(System.getProperty("os.name")), "the build ships natives for linux-x86_64 only");

        assertEquals(TlsEngine.OPENSSL, TlsEngine.AUTO.resolve());
    }

    @Test
    void theJdkEngineIsAlwaysAvailable() {
        assertEquals(TlsEngine.JDK, TlsEngine.JDK.resolve());
    }
}
