package dev.portico.proxy.files;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** Set-up shared by the static-file tests: one site on disk per class, a client, an optional origin. */
abstract class StaticTestSupport {

    static Site site;

    @Inject
    DataPlaneServer dataPlane;

    ProxyClient client;
    ScriptedOrigin origin;

    @BeforeAll
    static void createSite() {
        site = Site.create();
    }

    @AfterAll
    static void removeSite() {
        site.close();
    }

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        if (client != null) {
            client.close();
            client = null;
        }
        if (origin != null) {
            origin.close();
            origin = null;
        }
    }

    ProxyClient client() {
        if (client == null) {
            client = new ProxyClient(dataPlane.port());
        }
        return client;
    }
}
